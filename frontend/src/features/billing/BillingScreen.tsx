import { useMemo, useState } from 'react';
import type { Invoice, User } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { AgingTiles } from './AgingTiles';
import { billingLinks, type InvoiceQuery } from './billingApi';
import { BillingSettingsDialog } from './BillingSettingsDialog';
import { InvoiceFilters } from './InvoiceFilters';
import { InvoicePanel } from './InvoicePanel';
import { InvoicesTable } from './InvoicesTable';
import { BILLING_SCREEN_TEXTS as T } from './texts';
import { InvoicesLoadStatus } from './InvoicesLoadStatus';
import { useInvoices } from './useInvoices';

/** Managers and Representatives: every invoice, its panel and dialogs; for Managers aging, export, settings. */
export function BillingScreen({ user }: { user: User }) {
  const manager = user.role === 'Manager';
  const [filter, setFilter] = useState<InvoiceQuery>({});
  const { load, replace, reload } = useInvoices(filter);
  const [selected, setSelected] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [changes, setChanges] = useState(0);
  const users = useCache((state) => state.users);
  const invoices = load.state === 'done' ? load.invoices : [];
  const doctors = useMemo(() => {
    const names = new Set(
      (users ?? []).filter((item) => item.role === 'Doctor').map((item) => item.username),
    );
    for (const invoice of invoices) names.add(invoice.doctorUsername);
    return [...names].sort();
  }, [users, invoices]);
  const current = invoices.find((invoice) => invoice.number === selected) ?? null;
  const currency = invoices[0]?.currency ?? 'USD';
  const changed = (invoice: Invoice) => {
    replace(invoice);
    setChanges((n) => n + 1);
  };
  return (
    <div className="page billing">
      <div className="page__title-row page__title-row--split">
        <div>
          <h1>{T.billing}</h1>
          <p className="welcome">{T.billingSubtitle}</p>
        </div>
        {manager ? (
          <div className="billing__tools">
            <a
              className="button button--secondary"
              href={billingLinks.export('quickbooks', filter.from ?? '', filter.to ?? '')}
              download
            >
              <Icon name="download" />
              {T.exportQuickbooks}
            </a>
            <a
              className="button button--secondary"
              href={billingLinks.export('xero', filter.from ?? '', filter.to ?? '')}
              download
            >
              <Icon name="download" />
              {T.exportXero}
            </a>
            <button type="button" className="button button--ghost" onClick={() => setSettingsOpen(true)}>
              {T.settings}
            </button>
          </div>
        ) : null}
      </div>
      {manager ? <AgingTiles currency={currency} version={changes} /> : null}
      <InvoiceFilters filter={filter} doctors={doctors} onChange={setFilter} />
      <InvoicesLoadStatus load={load} />
      <div className={current ? 'billing__split' : undefined}>
        <InvoicesTable
          invoices={invoices}
          showDoctor
          compact={current !== null}
          onOpen={(invoice) => setSelected(invoice.number)}
        />
        {current ? (
          <InvoicePanel
            invoice={current}
            role={user.role}
            onChanged={changed}
            onClose={() => setSelected(null)}
          />
        ) : null}
      </div>
      {settingsOpen ? (
        <BillingSettingsDialog
          onClose={() => setSettingsOpen(false)}
          onSaved={() => {
            setSettingsOpen(false);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}
