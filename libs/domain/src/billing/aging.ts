import type { Invoice } from './invoice.js';

export interface AgingFigures {
  current: number;
  days1to30: number;
  days31to60: number;
  days61to90: number;
  over90: number;
  total: number;
}

export interface AgingRow extends AgingFigures {
  doctor: string;
  clinicName: string;
}

export interface AgingReport {
  rows: AgingRow[];
  totals: AgingFigures;
}

const DAY_MS = 86_400_000;

const empty = (): AgingFigures => ({
  current: 0,
  days1to30: 0,
  days31to60: 0,
  days61to90: 0,
  over90: 0,
  total: 0,
});

/** Whole days from the due day to today (UTC days); 0 or less: not yet past due. */
export function daysPastDue(dueAt: string, now: Date): number {
  const day = (at: Date) => Math.floor(at.getTime() / DAY_MS);
  return day(now) - day(new Date(dueAt));
}

export function agingBucket(days: number): Exclude<keyof AgingFigures, 'total'> {
  if (days <= 0) return 'current';
  if (days <= 30) return 'days1to30';
  if (days <= 60) return 'days31to60';
  if (days <= 90) return 'days61to90';
  return 'over90';
}

type AgingInput = Pick<
  Invoice,
  'doctorUsername' | 'clinicName' | 'dueAt' | 'balance' | 'status' | 'issuedAt'
>;

/** Open balances by doctor and days past due; voided and paid invoices count for nothing. */
export function agingOf(invoices: AgingInput[], now: Date): AgingReport {
  const rows = new Map<string, AgingRow & { latest: string }>();
  const totals = empty();
  for (const invoice of invoices) {
    if (invoice.status !== 'open' || invoice.balance === 0) continue;
    const key = invoice.doctorUsername.toLowerCase();
    let row = rows.get(key);
    if (!row) {
      row = {
        doctor: invoice.doctorUsername,
        clinicName: invoice.clinicName,
        latest: invoice.issuedAt,
        ...empty(),
      };
      rows.set(key, row);
    } else if (invoice.issuedAt > row.latest) {
      // The clinic a doctor bills under now: that of their latest invoice.
      row.clinicName = invoice.clinicName;
      row.latest = invoice.issuedAt;
    }
    const bucket = agingBucket(daysPastDue(invoice.dueAt, now));
    row[bucket] += invoice.balance;
    row.total += invoice.balance;
    totals[bucket] += invoice.balance;
    totals.total += invoice.balance;
  }
  return {
    rows: [...rows.values()]
      .sort((a, b) => a.doctor.localeCompare(b.doctor))
      .map(({ latest: _latest, ...row }) => row),
    totals,
  };
}

/** The report of rows already summed per doctor (the server sums in SQL): their totals added. */
export function agingTotals(rows: AgingRow[]): AgingReport {
  const totals = empty();
  for (const row of rows)
    for (const key of Object.keys(totals) as (keyof AgingFigures)[]) totals[key] += row[key];
  return { rows, totals };
}
