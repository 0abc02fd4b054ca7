import { useEffect, useId, useState } from 'react';
import type { BillingSettings } from '@alignerflow/domain';
import { toast } from '../../components/toastStore';
import { billingApi } from './billingApi';
import { MoneyCommandDialog } from './MoneyCommandDialog';
import { BILLING_SCREEN_TEXTS as T } from './texts';

type Draft = Record<keyof BillingSettings, string>;

const FIELDS: { key: keyof BillingSettings; label: string; numeric?: boolean }[] = [
  { key: 'labName', label: T.labName },
  { key: 'labAddress', label: T.labAddress },
  { key: 'labTaxId', label: T.labTaxId },
  { key: 'currency', label: T.currency },
  { key: 'taxRate', label: T.taxRate, numeric: true },
  { key: 'paymentTermsDays', label: T.paymentTermsDays, numeric: true },
];

/** The lab's billing settings (Manager): what the next invoices say and charge. */
export function BillingSettingsDialog({
  onClose,
  onSaved,
}: {
  onClose: () => void;
  onSaved: (settings: BillingSettings) => void;
}) {
  const baseId = useId();
  const [draft, setDraft] = useState<Draft | null>(null);
  useEffect(() => {
    let current = true;
    void billingApi.settings().then((settings) => {
      if (current)
        setDraft(Object.fromEntries(FIELDS.map(({ key }) => [key, String(settings[key])])) as Draft);
    });
    return () => {
      current = false;
    };
  }, []);
  return (
    <MoneyCommandDialog
      title={T.settings}
      submitLabel={T.save}
      onClose={onClose}
      onSubmit={async () => {
        if (!draft) return;
        const saved = await billingApi.saveSettings({
          labName: draft.labName,
          labAddress: draft.labAddress,
          labTaxId: draft.labTaxId,
          currency: draft.currency.trim(),
          taxRate: Number(draft.taxRate),
          paymentTermsDays: Number(draft.paymentTermsDays),
        });
        toast(T.settingsSaved);
        onSaved(saved);
      }}
    >
      {draft
        ? FIELDS.map(({ key, label, numeric }, index) => (
            <div className="field" key={key}>
              <label className="field__label" htmlFor={`${baseId}-${key}`}>
                {label}
              </label>
              <input
                id={`${baseId}-${key}`}
                data-autofocus={index === 0 ? true : undefined}
                inputMode={numeric ? 'decimal' : undefined}
                value={draft[key]}
                onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
              />
            </div>
          ))
        : null}
    </MoneyCommandDialog>
  );
}
