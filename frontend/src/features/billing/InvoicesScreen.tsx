import type { User } from '@alignerflow/domain';
import { isoDay } from '../../components/format';
import { InvoicesTable } from './InvoicesTable';
import { StatementPanel } from './StatementPanel';
import { BILLING_SCREEN_TEXTS as T } from './texts';
import { InvoicesLoadStatus } from './InvoicesLoadStatus';
import { useInvoices } from './useInvoices';

const NO_FILTER = {};

/** A Doctor's invoices (each a PDF) and their monthly statement. */
export function InvoicesScreen({ user, today = new Date() }: { user: User; today?: Date }) {
  const { load } = useInvoices(NO_FILTER);
  return (
    <div className="page billing">
      <div className="page__title-row">
        <div>
          <h1>{T.invoices}</h1>
          <p className="welcome">{T.invoicesSubtitle}</p>
        </div>
      </div>
      <InvoicesLoadStatus load={load} />
      {load.state === 'done' ? <InvoicesTable invoices={load.invoices} showDoctor={false} /> : null}
      <StatementPanel doctor={user.username} initialMonth={isoDay(today).slice(0, 7)} />
    </div>
  );
}
