import type { Alert } from '../notifications/policy.js';
import type { InvoiceReminderData } from './events.js';
import { formatMoney } from './money.js';
import { BILLING_TEXTS } from './texts.js';

/**
 * Whom an invoice event alerts: the overdue reminder goes to the invoice's doctor (push and
 * email, through the notification dispatcher like every alert); nothing else of billing alerts.
 * It leaves the lab by email and FCM, so it names the patient by initials only and carries no
 * text a user wrote (a payment's reference, a credit note's reason).
 */
export function invoiceAlertsFor(type: string, data: unknown): Alert[] {
  if (type !== 'InvoiceReminderSent') return [];
  const reminder = data as InvoiceReminderData;
  if (!reminder.number || !reminder.doctorUsername) return [];
  return [
    {
      kind: 'doctor_alert',
      audience: { username: reminder.doctorUsername },
      doctor: reminder.doctorUsername,
      caseId: reminder.caseId,
      title: BILLING_TEXTS.reminderTitle(reminder.number),
      body: BILLING_TEXTS.reminderBody(
        reminder.number,
        formatMoney(reminder.balance, reminder.currency),
        reminder.dueAt.slice(0, 10),
        reminder.patientInitials,
      ),
    },
  ];
}
