import type { Invoice } from '@alignerflow/domain';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import {
  buildBackend,
  BUILD_TIMEOUT_MS,
  START_TIMEOUT_MS,
  startApiProcess,
  type ApiProcess,
} from './support/app-process';
import { billingSettled, newestFirst } from './support/billing';
import { byUsername, caseAt } from './support/case-road';
import { createTestDatabase, keepInUse } from './support/database';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';

const CASES = 50;
const ROAD_USERS = ['admin', 'rep', 'designer', 'tech', 'dr.lee'];

/** The sequences of `numbers` (PREFIX-YEAR-NNNNN) per year, sorted. */
function sequencesByYear(numbers: string[]): Map<string, number[]> {
  const byYear = new Map<string, number[]>();
  for (const number of numbers) {
    const [, year, sequence] = number.split('-');
    byYear.set(year, [...(byYear.get(year) ?? []), Number(sequence)]);
  }
  for (const sequences of byYear.values()) sequences.sort((x, y) => x - y);
  return byYear;
}

/**
 * api.md "Billing": numbers consecutive per year with no gap and no duplicate when many cases
 * ship at once, here from two API processes (`node backend/dist/main.js`) on one database, and
 * credit notes drawn concurrently on both.
 */
describe('invoice and credit note numbers from two API processes', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let keeper: Client | undefined;
  let dataDir: string | undefined;
  const apis: ApiProcess[] = [];
  const clients: Record<string, ApiClient>[] = [];

  beforeAll(
    async () => {
      await buildBackend();
      database = await createTestDatabase();
      keeper = await keepInUse(database.url);
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'af-billing-'));
      const env = { DATABASE_URL: database.url, ADMIN_PASSWORD: 'demo', DATA_DIR: dataDir, DEMO_DATA: '1' };
      apis.push(await startApiProcess('API A', env));
      apis.push(await startApiProcess('API B', env));
      for (const api of apis)
        clients.push(byUsername(...(await Promise.all(ROAD_USERS.map((name) => api.login(name))))));
    },
    BUILD_TIMEOUT_MS + 2 * START_TIMEOUT_MS,
  );

  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await keeper?.end().catch(() => undefined);
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`${CASES} cases shipped at once get one invoice each, numbered 1..n per year`, async () => {
    const [a, b] = clients;
    await billingSettled(database!.url); // the demo's own shipped cases first
    const before: Invoice[] = (await a.admin.get('/invoices')).body;
    const ids: string[] = [];
    for (let index = 0; index < CASES; index++)
      ids.push((await caseAt(index % 2 ? a : b, 'Packaging & Labeling', { price: 1000 + index })).id);

    // Every case ships at once, half through each process; each advance is sent twice (a retry).
    const answers = await Promise.all(
      ids.flatMap((id, index) =>
        [a, b].map((side) =>
          (index % 2 ? side : side === a ? b : a).rep.post(`/cases/${id}/advance`, {
            fromStatus: 'Packaging & Labeling',
          }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(CASES);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(CASES);
    await billingSettled(database!.url);

    const all: Invoice[] = (await b.admin.get('/invoices')).body;
    const shipped = all.filter((invoice) => ids.includes(invoice.caseId));
    expect(shipped).toHaveLength(CASES);
    expect(new Set(shipped.map((invoice) => invoice.caseId)).size).toBe(CASES);
    expect(all).toHaveLength(before.length + CASES);
    for (const sequences of sequencesByYear(all.map((invoice) => invoice.number)).values())
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    const [{ count }] = await sql<{ count: number }>(
      database!.url,
      "SELECT count(*)::int AS count FROM events WHERE type = 'InvoiceIssued'",
    );
    expect(count).toBe(all.length);

    // Credit notes drawn at the same moment on both processes: CN numbers 1..n, none lost.
    const credits = await Promise.all(
      shipped.map((invoice, index) =>
        (index % 2 ? a : b).admin.post(`/invoices/${invoice.number}/credit-notes`, {
          amount: index % 5 === 0 ? invoice.balance + 1 : 100,
          reason: 'Goodwill',
        }),
      ),
    );
    const issued = credits
      .filter((answer) => answer.status === 201)
      .map((answer) => answer.body.number as string);
    expect(issued).toHaveLength(CASES - CASES / 5);
    expect(credits.filter((answer) => answer.status === 400)).toHaveLength(CASES / 5);
    // After the demo's own (its sample story credits one invoice).
    const earlier = before.flatMap((invoice) => invoice.creditNotes.map((note) => note.number));
    for (const sequences of sequencesByYear([...earlier, ...issued]).values())
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));

    // Both processes had listed the invoices before the credits; each lists them now as they are,
    // the credits drawn through the other process included, in the one order.
    const [listA, listB] = (await Promise.all([a.admin.get('/invoices'), b.admin.get('/invoices')])).map(
      (answer) => answer.body as Invoice[],
    );
    expect(listA).toEqual(listB);
    expect(listA.map((invoice) => invoice.number)).toEqual(
      [...listA].sort(newestFirst).map((item) => item.number),
    );
    const credited = listA.flatMap((invoice) => invoice.creditNotes.map((note) => note.number));
    expect(credited).toEqual(expect.arrayContaining(issued));
    for (const invoice of listA.filter((item) => ids.includes(item.caseId)))
      expect(invoice.balance).toBe(invoice.total - invoice.paid - invoice.credited);
  }, 240_000);
});
