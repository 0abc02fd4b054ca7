import { STATUS_LABELS, type PaymentMethod } from '@alignerflow/domain';
import { storyToday, type SampleSpec } from './sample-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const LEE = { name: 'Dr. Sarah Lee', username: 'dr.lee' };
const PATEL = { name: 'Dr. Raj Patel', username: 'dr.patel' };

/**
 * Cases shipped and completed after the spec's five, so the Billing screen opens filled: the
 * system invoiced each when it reached Delivery to Doctor, and the lab then settled them in
 * different ways (billingStory). Completed, so the dashboard's active and overdue tiles stay
 * those of the five.
 */
export const BILLING_SAMPLES: SampleSpec[] = [
  {
    id: 'CA-2024-101',
    patientName: 'Noah Williams',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: STATUS_LABELS.Completed,
    priority: 'Normal',
    price: 1350,
    sheets: [16, 16],
    dueInDays: -38,
    createdBy: 'rep',
    enteredDaysAgo: 40,
  },
  {
    id: 'CA-2024-102',
    patientName: 'Mia Johnson',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: STATUS_LABELS.Completed,
    priority: 'Normal',
    price: 1200,
    sheets: [14, 12],
    dueInDays: -70,
    createdBy: 'rep',
    enteredDaysAgo: 73,
  },
  {
    id: 'CA-2024-103',
    patientName: 'Lucas Garcia',
    doctor: LEE,
    clinicName: 'Bright Smiles Dental',
    status: STATUS_LABELS.Completed,
    priority: 'High',
    price: 1450,
    sheets: [20, 18],
    dueInDays: -10,
    createdBy: 'rep',
    enteredDaysAgo: 12,
  },
  {
    id: 'CA-2024-104',
    patientName: 'Isabella Rossi',
    doctor: PATEL,
    clinicName: 'Downtown Orthodontics',
    status: STATUS_LABELS.Completed,
    priority: 'Normal',
    price: 1250,
    sheets: [15, 15],
    dueInDays: -6,
    createdBy: 'rep',
    enteredDaysAgo: 8,
  },
];

/** What a demo user did to an invoice: the body of its billing request, by whom, and when. */
export interface BillingStep {
  caseId: string;
  username: string;
  at: string;
  command:
    | { type: 'RecordPayment'; share: 'all' | 'half'; method: PaymentMethod; reference: string }
    | { type: 'IssueCreditNote'; amount: number; reason: string }
    | { type: 'VoidInvoice'; reason: string };
}

/**
 * How the lab settled the invoices of BILLING_SAMPLES (CA-2024-077's stays open and overdue):
 * paid in full, paid in part (the rest past due), credited, voided. Oldest first.
 */
export function billingStory(now = new Date()): BillingStep[] {
  const today = storyToday(now);
  const at = (daysAgo: number) => new Date(today - daysAgo * DAY_MS).toISOString();
  const steps: BillingStep[] = [
    {
      caseId: 'CA-2024-102',
      username: 'rep',
      at: at(60),
      command: { type: 'RecordPayment', share: 'half', method: 'card', reference: 'Visa ending 4242' },
    },
    {
      caseId: 'CA-2024-101',
      username: 'rep',
      at: at(25),
      command: { type: 'RecordPayment', share: 'all', method: 'bank', reference: 'Transfer BSD-0917' },
    },
    {
      caseId: 'CA-2024-103',
      username: 'admin',
      at: at(5),
      command: {
        type: 'IssueCreditNote',
        amount: 15_000,
        reason: 'Goodwill: the refinement aligners left a week late.',
      },
    },
    {
      caseId: 'CA-2024-104',
      username: 'admin',
      at: at(4),
      command: { type: 'VoidInvoice', reason: 'Billed on the clinic’s monthly contract instead.' },
    },
  ];
  return steps;
}
