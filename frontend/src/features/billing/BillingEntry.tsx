import type { User } from '@alignerflow/domain';
import { BillingScreen } from './BillingScreen';
import { InvoicesScreen } from './InvoicesScreen';

/** What the Shell loads lazily: the staff's Billing screen, or a Doctor's Invoices. */
export function BillingEntry({ user }: { user: User }) {
  return user.role === 'Doctor' ? <InvoicesScreen user={user} /> : <BillingScreen user={user} />;
}
