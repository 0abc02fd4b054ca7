import { useCallback, useEffect, useState } from 'react';
import type { Invoice } from '@alignerflow/domain';
import { billingApi, errorText, type InvoiceQuery } from './billingApi';

export type InvoicesLoad =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; invoices: Invoice[] };

/** The invoices matching `filter`, loaded again when it changes or when `reload` is called. */
export function useInvoices(filter: InvoiceQuery): {
  load: InvoicesLoad;
  reload: () => void;
  replace: (invoice: Invoice) => void;
} {
  const [load, setLoad] = useState<InvoicesLoad>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const key = JSON.stringify(filter);
  useEffect(() => {
    let current = true;
    billingApi.invoices(JSON.parse(key) as InvoiceQuery).then(
      (invoices) => current && setLoad({ state: 'done', invoices }),
      (error: unknown) => current && setLoad({ state: 'error', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  // A command's answer is the invoice after it: shown at once, without another request.
  const replace = useCallback(
    (invoice: Invoice) =>
      setLoad((previous) =>
        previous.state === 'done'
          ? {
              state: 'done',
              invoices: previous.invoices.map((item) => (item.number === invoice.number ? invoice : item)),
            }
          : previous,
      ),
    [],
  );
  return { load, reload, replace };
}
