import fc from 'fast-check';
import { agingOf, daysPastDue } from './aging.js';
import type { InvoiceEventData } from './events.js';
import { foldInvoice } from './evolve.js';
import { invoicesCsv } from './export-csv.js';
import type { Invoice } from './invoice.js';
import { formatMoney, taxOf, toMajorText, toMinorUnits } from './money.js';
import { isDay, isMonth, statementOf } from './statement.js';

describe('money in minor units', () => {
  it.each([
    [1100.5, 110050],
    [1100, 110000],
    [0.1 + 0.2, 30],
    [1.005, 101],
    [19.99, 1999],
    [0, 0],
  ])('%p major is %p minor, exactly', (major, minor) => {
    expect(toMinorUnits(major)).toBe(minor);
  });

  it('rounds tax once per line, half-up to the cent', () => {
    expect(taxOf(1000, 12.5)).toBe(125);
    expect(taxOf(5, 10)).toBe(1); // 0.5 cent → 1
    expect(taxOf(4, 10)).toBe(0); // 0.4 cent → 0
    expect(taxOf(110050, 8.25)).toBe(9079); // 9079.125
    expect(taxOf(110050, 0)).toBe(0);
  });

  it('writes major units with 2 decimals and shows the currency', () => {
    expect(toMajorText(110050)).toBe('1100.50');
    expect(toMajorText(7)).toBe('0.07');
    expect(formatMoney(110050, 'USD')).toBe('$1,100.50');
    expect(formatMoney(110050, 'EUR', 'de-DE')).toBe('1.100,50\u00a0€');
  });
});

const line = fc.record({
  description: fc.string({ maxLength: 20 }),
  quantity: fc.integer({ min: 1, max: 50 }),
  unitAmount: fc.integer({ min: 1, max: 5_000_000 }),
  taxRate: fc.integer({ min: 0, max: 10000 }).map((basisPoints) => basisPoints / 100),
});

describe('totals and balances always add up (property)', () => {
  it('over random lines, payments and credits', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 10 }),
        (lines, moves) => {
          const events: InvoiceEventData[] = [
            {
              type: 'InvoiceIssued',
              data: {
                number: 'INV-2026-00001',
                caseId: 'CA-2026-100',
                patientInitials: 'J.D.',
                doctorUsername: 'dr.lee',
                clinicName: 'Smile',
                issuedAt: '2026-01-05T10:00:00.000Z',
                dueAt: '2026-02-04T10:00:00.000Z',
                currency: 'USD',
                lines,
              },
            },
          ];
          let invoice = foldInvoice(events) as Invoice;
          moves.forEach(([isPayment, share], index) => {
            const amount = Math.max(1, Math.floor(invoice.balance * share));
            if (invoice.balance < 1) return;
            events.push(
              isPayment
                ? {
                    type: 'PaymentRecorded',
                    data: {
                      id: `p${index}`,
                      amount,
                      method: 'bank',
                      reference: '',
                      receivedAt: '2026-01-20',
                      recordedBy: 'rep',
                    },
                  }
                : {
                    type: 'CreditNoteIssued',
                    data: {
                      number: `CN-2026-${index}`,
                      amount,
                      reason: 'x',
                      issuedAt: '2026-01-21T00:00:00.000Z',
                    },
                  },
            );
            invoice = foldInvoice(events) as Invoice;
          });
          const amounts = invoice.lines.map((item) => item.quantity * item.unitAmount);
          expect(invoice.subtotal).toBe(amounts.reduce((a, b) => a + b, 0));
          expect(invoice.tax).toBe(
            invoice.lines.reduce((sum, item) => sum + taxOf(item.amount, item.taxRate), 0),
          );
          expect(invoice.total).toBe(invoice.subtotal + invoice.tax);
          expect(invoice.balance).toBe(invoice.total - invoice.paid - invoice.credited);
          expect(invoice.balance).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(invoice.balance)).toBe(true);
          expect(invoice.status).toBe(invoice.balance === 0 ? 'paid' : 'open');
          const statement = statementOf([invoice], 'dr.lee', '2026-01', 'USD');
          expect(statement.closing).toBe(
            statement.opening + statement.invoiced - statement.paid - statement.credited,
          );
          expect(statement.closing).toBe(invoice.balance);
          expect(statement.entries.at(-1)?.balance).toBe(invoice.balance);
          const aging = agingOf([invoice], new Date('2026-03-01T00:00:00.000Z'));
          expect(aging.totals.total).toBe(invoice.balance);
        },
      ),
    );
  });
});

const invoice = (over: Partial<Invoice>): Invoice => ({
  number: 'INV-2026-00001',
  caseId: 'CA-2026-100',
  patientInitials: 'J.D.',
  doctorUsername: 'dr.lee',
  clinicName: 'Smile',
  issuedAt: '2026-01-05T10:00:00.000Z',
  dueAt: '2026-02-04T10:00:00.000Z',
  currency: 'USD',
  lines: [{ description: 'Aligners', quantity: 1, unitAmount: 10000, taxRate: 10, amount: 10000 }],
  subtotal: 10000,
  tax: 1000,
  total: 11000,
  paid: 0,
  credited: 0,
  balance: 11000,
  status: 'open',
  payments: [],
  creditNotes: [],
  voidReason: null,
  remindedAt: null,
  ...over,
});

describe('aging', () => {
  it('buckets open balances by days past due, per doctor; void and paid count for nothing', () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    expect(daysPastDue('2026-03-10T23:00:00.000Z', now)).toBe(0);
    const report = agingOf(
      [
        invoice({ dueAt: '2026-03-20T00:00:00.000Z', balance: 100 }),
        invoice({ dueAt: '2026-03-09T00:00:00.000Z', balance: 200 }),
        invoice({ dueAt: '2026-02-01T00:00:00.000Z', balance: 300 }),
        invoice({ dueAt: '2026-01-01T00:00:00.000Z', balance: 400 }),
        invoice({ dueAt: '2025-12-01T00:00:00.000Z', balance: 500 }),
        invoice({ dueAt: '2025-12-01T00:00:00.000Z', balance: 900, status: 'void' }),
        invoice({
          doctorUsername: 'dr.patel',
          clinicName: 'Bright',
          dueAt: '2026-02-01T00:00:00.000Z',
          balance: 50,
        }),
      ],
      now,
    );
    expect(report.rows).toEqual([
      {
        doctor: 'dr.lee',
        clinicName: 'Smile',
        current: 100,
        days1to30: 200,
        days31to60: 300,
        days61to90: 400,
        over90: 500,
        total: 1500,
      },
      {
        doctor: 'dr.patel',
        clinicName: 'Bright',
        current: 0,
        days1to30: 0,
        days31to60: 50,
        days61to90: 0,
        over90: 0,
        total: 50,
      },
    ]);
    expect(report.totals).toEqual({
      current: 100,
      days1to30: 200,
      days31to60: 350,
      days61to90: 400,
      over90: 500,
      total: 1550,
    });
  });
});

describe('the accountant’s CSV', () => {
  const rows = [
    invoice({ clinicName: '=HYPERLINK("x")' }),
    invoice({ number: 'INV-2026-00002', status: 'void' }),
  ];
  it('QuickBooks Online columns, one row per line, voided left out, formula-safe', () => {
    expect(invoicesCsv(rows, 'quickbooks')).toBe(
      'InvoiceNo,Customer,InvoiceDate,DueDate,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,ItemAmount,ItemTaxAmount\r\n' +
        `INV-2026-00001,"'=HYPERLINK(""x"")",2026-01-05,2026-02-04,Clear Aligners,Aligners,1,100.00,100.00,10.00\r\n`,
    );
  });
  it('Xero columns', () => {
    expect(invoicesCsv(rows, 'xero')).toBe(
      'ContactName,InvoiceNumber,InvoiceDate,DueDate,Description,Quantity,UnitAmount,AccountCode,TaxType,Currency\r\n' +
        `"'=HYPERLINK(""x"")",INV-2026-00001,2026-01-05,2026-02-04,Aligners,1,100.00,200,Tax on Sales,USD\r\n`,
    );
  });
});

describe('a statement', () => {
  it('opens with the earlier balance and lists the month oldest first', () => {
    const december = invoice({
      number: 'INV-2025-00009',
      issuedAt: '2025-12-20T10:00:00.000Z',
      payments: [
        { id: 'a', amount: 1000, method: 'card', reference: '', receivedAt: '2026-01-03', recordedBy: 'rep' },
      ],
    });
    const january = invoice({
      creditNotes: [
        { number: 'CN-2026-00001', amount: 500, reason: 'x', issuedAt: '2026-01-07T00:00:00.000Z' },
      ],
    });
    const statement = statementOf(
      [january, december, invoice({ number: 'INV-2026-00003', status: 'void' })],
      'dr.lee',
      '2026-01',
      'USD',
    );
    expect(statement).toEqual({
      doctor: 'dr.lee',
      month: '2026-01',
      currency: 'USD',
      opening: 11000,
      invoiced: 11000,
      paid: 1000,
      credited: 500,
      closing: 20500,
      entries: [
        { date: '2026-01-03', kind: 'payment', number: 'INV-2025-00009', amount: 1000, balance: 10000 },
        { date: '2026-01-05', kind: 'invoice', number: 'INV-2026-00001', amount: 11000, balance: 21000 },
        { date: '2026-01-07', kind: 'credit_note', number: 'CN-2026-00001', amount: 500, balance: 20500 },
      ],
    });
  });
});

describe('days and months a user gives', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-02-31', false],
    ['2026-13-01', false],
    ['26-01-01', false],
    [20260101, false],
  ])('isDay(%p) is %p', (value, ok) => {
    expect(isDay(value)).toBe(ok);
  });
  it.each([
    ['2026-03', true],
    ['2026-00', false],
    ['2026-13', false],
    ['2026-3', false],
  ])('isMonth(%p) is %p', (value, ok) => {
    expect(isMonth(value)).toBe(ok);
  });
});
