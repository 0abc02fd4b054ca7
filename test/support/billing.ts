import type { Invoice } from '@alignerflow/domain';
import { eventually, sql } from './helpers';
import type { ApiClient } from './http';

/** Waits until the invoice issuer has read the whole log (its checkpoint at the log's head). */
export async function billingSettled(databaseUrl: string, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      const [row] = await sql<{ behind: boolean }>(
        databaseUrl,
        `SELECT coalesce((SELECT global_position FROM projection_checkpoints WHERE name = 'billing'), 0)
                < (SELECT coalesce(max(global_position), 0) FROM events) AS behind`,
      );
      return !row.behind;
    },
    timeoutMs,
    'the invoice issuer to read the whole log',
  );
}

/** The invoices of one case, as the client may see them. */
export async function invoicesOf(client: ApiClient, caseId: string): Promise<Invoice[]> {
  const answer = await client.get<Invoice[]>(`/invoices?caseId=${encodeURIComponent(caseId)}`);
  if (answer.status !== 200)
    throw new Error(`GET /invoices: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** api.md's order of GET /invoices: newest first; of invoices issued at one moment, the higher number first. */
export function newestFirst(x: Invoice, y: Invoice): number {
  return y.issuedAt.localeCompare(x.issuedAt) || (y.number < x.number ? -1 : y.number > x.number ? 1 : 0);
}
