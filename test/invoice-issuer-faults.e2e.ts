import { DataSource } from 'typeorm';
import { BillingStore } from '../backend/src/billing/billing-store';
import { InvoiceCommandService } from '../backend/src/billing/invoice-command.service';
import { InvoiceIssuer } from '../backend/src/billing/invoice-issuer';
import { EventStore } from '../backend/src/event-store/event-store';
import { billingSettled, invoicesOf } from './support/billing';
import { caseAt } from './support/case-road';
import { useDemoUsers } from './support/demo-users';
import { eventually, sql } from './support/helpers';

/**
 * The invoice issuer under faults (backend/src/billing/README.md): its leader keeps the
 * checkpoint in memory while it holds the lock and saves it in batches, so a leader that loses
 * its session before a save leaves an older checkpoint behind; the next leader reads those events
 * again and must issue nothing twice.
 */
describe('issuing invoices across faults', () => {
  const users = useDemoUsers();

  it('a leader whose session dies between batches and saves leaves every shipped case one invoice', async () => {
    const { app, databaseUrl } = users.lab;
    const issuer = app.get(InvoiceIssuer);
    await eventually(() => issuer.isLeader, 10_000, 'the issuer to lead');
    // A second process's issuer, eager to take over.
    const other = new InvoiceIssuer(
      app.get(DataSource),
      app.get(EventStore),
      app.get(BillingStore),
      app.get(InvoiceCommandService),
    );
    other.start({ followerPollMs: 20, idlePollMs: 50 });
    const shipped: string[] = [];
    const kills: number[] = [];
    try {
      for (let round = 0; round < 6; round++) {
        shipped.push((await caseAt(users.byUsername, 'Delivery to Doctor', { price: 500 + round })).id);
        // Whichever process leads loses its session, its checkpoint maybe still in memory only.
        const pid = issuer.leaderPid ?? other.leaderPid;
        if (pid !== undefined) {
          kills.push(pid);
          await sql(databaseUrl, 'SELECT pg_terminate_backend($1)', [pid]);
        }
      }
      expect(kills.length).toBeGreaterThan(0);
      await billingSettled(databaseUrl, 30_000);
    } finally {
      await other.stop();
    }
    for (const id of shipped) expect(await invoicesOf(users.admin, id)).toHaveLength(1);
    const [{ invoices, numbers }] = await sql(
      databaseUrl,
      `SELECT count(*)::int AS invoices, count(DISTINCT number)::int AS numbers FROM invoice_view`,
    );
    expect(numbers).toBe(invoices);
  }, 180_000);
});
