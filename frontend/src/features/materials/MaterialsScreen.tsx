import { useState } from 'react';
import type { Lot, User } from '@alignerflow/domain';
import { LotForm } from './LotForm';
import { LotLabelDialog } from './LotLabelDialog';
import { LotList } from './LotList';
import { MaterialSettingsForm } from './MaterialSettingsForm';
import { RecallPanel } from './RecallPanel';
import { MATERIALS_TEXTS as T } from './texts';
import { useMaterials } from './useMaterials';
import { setTransitDays } from '../case-shared/useTransitDays';

/** The Materials screen: the lots register (expiry warnings, labels), a recall search and the lab's settings. */
export function MaterialsScreen({ user }: { user: User }) {
  const materials = useMaterials();
  const [label, setLabel] = useState<Lot | null>(null);
  const manager = user.role === 'Manager';
  const canRegister = manager || user.role === 'Technician';
  return (
    <div className="page mt-page">
      <h1>{T.screenTitle}</h1>
      {materials.error ? (
        <p className="form-error" role="alert">
          {materials.error}
        </p>
      ) : null}
      <div className="mt-layout">
        <div className="mt-layout__main">
          <LotList lots={materials.lots} onLabel={setLabel} />
          {manager ? <RecallPanel /> : null}
        </div>
        <div className="mt-layout__side">
          {canRegister ? <LotForm onRegistered={() => void materials.reload()} /> : null}
          {manager && materials.settings ? (
            <MaterialSettingsForm
              settings={materials.settings}
              onSaved={(saved) => {
                materials.setSettings(saved);
                setTransitDays(saved.transitDays);
              }}
            />
          ) : null}
        </div>
      </div>
      {label ? <LotLabelDialog lot={label} onClose={() => setLabel(null)} /> : null}
    </div>
  );
}
