import { caseAt, drLee, drPatel, designer, manager, rep, tech, E } from '../testing/case-fixtures.js';
import { decideInvoice, reminderDue, type InvoiceCommand } from './decide.js';
import type { InvoiceEventData, InvoiceIssuedData } from './events.js';
import { foldInvoice } from './evolve.js';
import { draftInvoice, isInvoiceable, triggersInvoice } from './issue.js';
import { DEFAULT_BILLING_SETTINGS, type Invoice } from './invoice.js';
import { BILLING_TEXTS } from './texts.js';
import { invoiceAlertsFor } from './reminder-alert.js';
import type { Actor } from '../permissions/roles.js';
import type { CaseEvent } from '../case/events.js';

const ISSUED_AT = '2026-03-02T10:00:00.000Z';
const issued = (over: Partial<InvoiceIssuedData> = {}): InvoiceEventData => ({
  type: 'InvoiceIssued',
  data: {
    number: 'INV-2026-00001',
    caseId: 'CA-2026-123',
    patientInitials: 'J.D.',
    doctorUsername: 'dr.lee',
    clinicName: 'Smile Clinic',
    issuedAt: ISSUED_AT,
    dueAt: '2026-04-01T10:00:00.000Z',
    currency: 'USD',
    lines: [{ description: 'Aligners', quantity: 1, unitAmount: 110050, taxRate: 8.25 }],
    ...over,
  },
});
const paid = (amount: number): InvoiceEventData => ({
  type: 'PaymentRecorded',
  data: { id: 'p1', amount, method: 'bank', reference: '', receivedAt: ISSUED_AT, recordedBy: 'rep' },
});
const credited = (amount: number): InvoiceEventData => ({
  type: 'CreditNoteIssued',
  data: { number: 'CN-2026-00001', amount, reason: 'Goodwill', issuedAt: ISSUED_AT },
});

/** Given these invoice events, when the actor sends the command, then: the decision. */
const when = (given: InvoiceEventData[], command: InvoiceCommand, actor: Actor = manager) =>
  decideInvoice(command, foldInvoice(given), actor);
const refused = (kind: string, message: string) => ({ ok: false, rejection: { kind, message } });
const payment = (amount: unknown, method: unknown = 'card'): InvoiceCommand => ({
  type: 'RecordPayment',
  id: 'p9',
  amount,
  method,
  receivedAt: ISSUED_AT,
});

describe('an issued invoice', () => {
  it('adds up: tax per line half-up, total, balance, open', () => {
    const invoice = foldInvoice([issued()]) as Invoice;
    // 110050 × 8.25 % = 9079.125 → 9079
    expect(invoice).toMatchObject({ subtotal: 110050, tax: 9079, total: 119129, paid: 0, balance: 119129 });
    expect(invoice.status).toBe('open');
    expect(invoice.lines[0].amount).toBe(110050);
  });

  it('is paid once payments and credits bring the balance to 0', () => {
    const invoice = foldInvoice([issued(), paid(100000), credited(19129)]) as Invoice;
    expect(invoice).toMatchObject({ paid: 100000, credited: 19129, balance: 0, status: 'paid' });
  });

  it('is issued once per case', () => {
    expect(when([issued()], { type: 'IssueInvoice', invoice: issued().data as InvoiceIssuedData })).toEqual(
      refused('conflict', 'Case CA-2026-123 is already invoiced.'),
    );
  });
});

describe('RecordPayment (Manager, Representative)', () => {
  it.each([manager, rep])('%o records a payment up to the balance', (actor) => {
    expect(when([issued()], payment(119129), actor)).toEqual({
      ok: true,
      events: [
        {
          type: 'PaymentRecorded',
          data: {
            id: 'p9',
            amount: 119129,
            method: 'card',
            reference: '',
            receivedAt: ISSUED_AT,
            recordedBy: actor.username,
          },
        },
      ],
    });
  });

  it.each([designer, tech, drLee])('%o may not', (actor) => {
    expect(when([issued()], payment(100), actor)).toEqual(refused('forbidden', BILLING_TEXTS.notAllowed));
  });

  it.each([0, -5, 119130, 1.5, '100', null])('refuses the amount %p', (amount) => {
    expect(when([issued()], payment(amount))).toEqual(refused('invalid', BILLING_TEXTS.amountRange));
  });

  it('refuses an unknown method', () => {
    expect(when([issued()], payment(100, 'bitcoin'))).toEqual(
      refused('invalid', BILLING_TEXTS.methodInvalid),
    );
  });

  it('refuses any amount on a paid invoice', () => {
    expect(when([issued(), paid(119129)], payment(1))).toEqual(refused('invalid', BILLING_TEXTS.amountRange));
  });
});

describe('IssueCreditNote and VoidInvoice (Manager)', () => {
  const credit = (amount: unknown, reason: unknown = 'Goodwill'): InvoiceCommand => ({
    type: 'IssueCreditNote',
    number: 'CN-2026-00002',
    amount,
    reason,
    issuedAt: ISSUED_AT,
  });
  const voiding: InvoiceCommand = { type: 'VoidInvoice', reason: 'Issued in error', at: ISSUED_AT };

  it('credits up to the balance, with a reason', () => {
    expect(when([issued(), paid(100000)], credit(19129))).toMatchObject({ ok: true });
    expect(when([issued(), paid(100000)], credit(19130))).toEqual(
      refused('invalid', BILLING_TEXTS.amountRange),
    );
    expect(when([issued()], credit(5, '  '))).toEqual(refused('invalid', BILLING_TEXTS.reasonRequired));
    expect(when([issued()], credit(5), rep)).toEqual(refused('forbidden', BILLING_TEXTS.managersOnly));
  });

  it('voids only an untouched invoice, which keeps its number', () => {
    const decision = when([issued()], voiding);
    expect(decision).toEqual({
      ok: true,
      events: [{ type: 'InvoiceVoided', data: { reason: 'Issued in error', at: ISSUED_AT } }],
    });
    const voided = foldInvoice([issued(), ...(decision.ok ? decision.events : [])]) as Invoice;
    expect(voided).toMatchObject({ number: 'INV-2026-00001', status: 'void' });
    expect(when([issued(), paid(1)], voiding)).toEqual(refused('conflict', BILLING_TEXTS.voidOnlyUntouched));
    expect(when([issued(), credited(1)], voiding)).toEqual(
      refused('conflict', BILLING_TEXTS.voidOnlyUntouched),
    );
    expect(when([issued()], voiding, rep)).toEqual(refused('forbidden', BILLING_TEXTS.managersOnly));
  });

  it('takes nothing on a voided invoice', () => {
    const voided: InvoiceEventData = { type: 'InvoiceVoided', data: { reason: 'x', at: ISSUED_AT } };
    expect(when([issued(), voided], payment(1))).toEqual(refused('conflict', BILLING_TEXTS.alreadyVoid));
    expect(when([issued(), voided], credit(1))).toEqual(refused('conflict', BILLING_TEXTS.alreadyVoid));
  });
});

describe('the reminder', () => {
  const invoice = foldInvoice([issued()]) as Invoice;
  it('is due seven days after the due date with a balance left, once', () => {
    expect(reminderDue(invoice, new Date('2026-04-08T09:59:59.000Z'))).toBe(false);
    expect(reminderDue(invoice, new Date('2026-04-08T10:00:00.000Z'))).toBe(true);
    const decision = decideInvoice(
      { type: 'SendReminder', at: '2026-04-08T10:00:00.000Z' },
      invoice,
      manager,
    );
    expect(decision).toEqual({
      ok: true,
      events: [
        {
          type: 'InvoiceReminderSent',
          data: {
            at: '2026-04-08T10:00:00.000Z',
            number: 'INV-2026-00001',
            caseId: 'CA-2026-123',
            patientInitials: 'J.D.',
            doctorUsername: 'dr.lee',
            balance: 119129,
            currency: 'USD',
            dueAt: '2026-04-01T10:00:00.000Z',
          },
        },
      ],
    });
    const sent = foldInvoice([issued(), ...(decision.ok ? decision.events : [])]) as Invoice;
    expect(sent.remindedAt).toBe('2026-04-08T10:00:00.000Z');
    expect(reminderDue(sent, new Date('2026-05-01T00:00:00.000Z'))).toBe(false);
    expect(decideInvoice({ type: 'SendReminder', at: '2026-05-01T00:00:00.000Z' }, sent, manager)).toEqual(
      refused('conflict', BILLING_TEXTS.notDueForReminder),
    );
    expect(reminderDue(foldInvoice([issued(), paid(119129)]) as Invoice, new Date('2026-05-01'))).toBe(false);
  });
});

describe('when a case is invoiced', () => {
  const shipped = caseAt('Delivery to Doctor');
  const entered = {
    ...E.advanced('Packaging & Labeling', 'Delivery to Doctor'),
    actor: tech,
    at: ISSUED_AT,
  } as CaseEvent;

  it('entering Delivery to Doctor with a price above 0 and a doctor', () => {
    expect(triggersInvoice(entered, shipped, 'dr.lee')).toBe(true);
    expect(triggersInvoice(entered, { ...shipped, price: 0 }, 'dr.lee')).toBe(false);
    expect(triggersInvoice(entered, { ...shipped, price: null }, 'dr.lee')).toBe(false);
    expect(isInvoiceable(caseAt('Quality Check'))).toBe(false);
  });

  it('not a remake for a lab error; a remake for another reason is', () => {
    const origin = { caseId: 'CA-2025-100', kind: 'remake' as const, reason: 'x' };
    expect(isInvoiceable({ ...shipped, origin: { ...origin, reasonCode: 'lab_error' } })).toBe(false);
    expect(isInvoiceable({ ...shipped, origin: { ...origin, reasonCode: 'lost' } })).toBe(true);
  });

  it('a shipped case without a doctor when one is assigned', () => {
    const approval = { ...E.approved('dr.patel'), actor: manager, at: ISSUED_AT } as CaseEvent;
    expect(triggersInvoice(entered, { ...shipped, assignedDoctorUsername: null }, null)).toBe(false);
    expect(triggersInvoice(approval, { ...shipped, assignedDoctorUsername: drPatel.username }, null)).toBe(
      true,
    );
    expect(triggersInvoice(approval, shipped, 'dr.lee')).toBe(false);
  });

  it('drafts one line of the exact price, the doctor’s tax rate over the lab’s', () => {
    const settings = { ...DEFAULT_BILLING_SETTINGS, taxRate: 10, paymentTermsDays: 14 };
    const draft = draftInvoice({ ...shipped, price: 1100.5 }, 'INV-2026-00007', ISSUED_AT, settings, null);
    expect(draft).toMatchObject({
      number: 'INV-2026-00007',
      doctorUsername: 'dr.lee',
      clinicName: 'Smile Clinic',
      patientInitials: 'J.D.',
      dueAt: '2026-03-16T10:00:00.000Z',
      lines: [{ quantity: 1, unitAmount: 110050, taxRate: 10 }],
    });
    const exempt = { clinicName: 'Exempt Dental', address: '', taxId: '', email: '', taxRate: 0 };
    expect(draftInvoice(shipped, 'INV-2026-00008', ISSUED_AT, settings, exempt)).toMatchObject({
      clinicName: 'Exempt Dental',
      lines: [{ taxRate: 0 }],
    });
  });
});

describe('the reminder’s alert', () => {
  it('goes to the invoice’s doctor alone, naming the number, the balance and the due day', () => {
    const data = {
      at: '2026-04-08T10:00:00.000Z',
      number: 'INV-2026-00001',
      caseId: 'CA-2026-123',
      patientInitials: 'J.D.',
      doctorUsername: 'dr.lee',
      balance: 119129,
      currency: 'USD',
      dueAt: '2026-04-01T10:00:00.000Z',
    };
    expect(invoiceAlertsFor('InvoiceReminderSent', data)).toEqual([
      {
        kind: 'doctor_alert',
        audience: { username: 'dr.lee' },
        doctor: 'dr.lee',
        caseId: 'CA-2026-123',
        title: 'Invoice INV-2026-00001 is overdue',
        body: 'Invoice INV-2026-00001 for J.D. was due on 2026-04-01; $1,191.29 is still open.',
      },
    ]);
    // A reminder recorded before reminders carried the initials reads as it did.
    const { patientInitials: _initials, ...older } = data;
    expect(invoiceAlertsFor('InvoiceReminderSent', older)[0].body).toBe(
      'Invoice INV-2026-00001 was due on 2026-04-01; $1,191.29 is still open.',
    );
    expect(invoiceAlertsFor('PaymentRecorded', data)).toEqual([]);
  });
});
