import { useId, useState } from 'react';
import {
  DEVICE_TEXTS,
  isLotExpired,
  localDay,
  lotKey,
  lotNumberFromScan,
  type CaseStatus,
  type Lot,
} from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { ActionError } from '../case-shared/ActionError';
import { LotScanner } from './LotScanner';
import { MATERIALS_TEXTS as T } from './texts';
import { useMaterials } from './useMaterials';

interface StageMaterialsDialogProps {
  stage: CaseStatus;
  busy: boolean;
  /** The server's answer to the last attempt, if it failed. */
  error: string | undefined;
  onComplete: (lots: string[], machine: string) => void;
  onClose: () => void;
}

/**
 * Completing Model Printing or Thermoforming: the lots used (picked from the register or read
 * from their label by the camera) and the machine, sent with the advance.
 */
export function StageMaterialsDialog({ stage, busy, error, onComplete, onClose }: StageMaterialsDialogProps) {
  const { lots, settings, error: loadError } = useMaterials();
  const [chosen, setChosen] = useState<string[]>([]);
  const [pick, setPick] = useState('');
  const [machine, setMachine] = useState('');
  const [scanning, setScanning] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const ids = { lot: useId(), machine: useId(), chosen: useId() };
  const today = localDay(new Date());
  const usable = (lots ?? []).filter((lot) => !isLotExpired(lot, today));

  const add = (lotNumber: string, scanned: boolean) => {
    const lot = (lots ?? []).find((candidate) => lotKey(candidate.lotNumber) === lotKey(lotNumber));
    if (!lot) return setNotice({ text: DEVICE_TEXTS.unknownLot(lotNumber), error: true });
    if (isLotExpired(lot, today))
      return setNotice({ text: DEVICE_TEXTS.lotExpired(lot.lotNumber, lot.expiresOn!), error: true });
    setChosen((current) => (current.includes(lot.lotNumber) ? current : [...current, lot.lotNumber]));
    setNotice(scanned ? { text: T.scanned(lot.lotNumber), error: false } : null);
    if (scanned) setScanning(false);
  };

  const footer = (
    <>
      <button type="button" className="button button--ghost" onClick={onClose}>
        {T.cancel}
      </button>
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        onClick={() => onComplete(chosen, machine.trim())}
      >
        <Icon name="check" />
        {T.complete}
      </button>
    </>
  );

  return (
    <Dialog title={T.completeTitle(stage)} onClose={onClose} size="small" footer={footer}>
      <div className="mt-picker">
        {settings?.requireLots ? <p className="hint">{T.lotsRequired}</p> : null}
        {loadError ? (
          <p className="form-error" role="alert">
            {loadError}
          </p>
        ) : null}
        <label htmlFor={ids.lot}>{T.chooseLot}</label>
        <div className="mt-picker__row">
          <select id={ids.lot} value={pick} onChange={(event) => setPick(event.target.value)} data-autofocus>
            <option value="">{lots ? T.chooseLot : T.loading}</option>
            {usable.map((lot: Lot) => (
              <option key={lot.lotNumber} value={lot.lotNumber}>
                {lot.lotNumber} · {lot.product}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--secondary"
            disabled={!pick}
            onClick={() => {
              add(pick, false);
              setPick('');
            }}
          >
            {T.addLot}
          </button>
        </div>
        <button
          type="button"
          className="button button--secondary button--block"
          aria-pressed={scanning}
          disabled={!lots}
          onClick={() => setScanning((current) => !current)}
        >
          <Icon name="qr" />
          {scanning ? T.stopScan : T.scanLot}
        </button>
        {scanning ? (
          <LotScanner
            onDecode={(text) => {
              const lotNumber = lotNumberFromScan(text);
              if (lotNumber) add(lotNumber, true);
            }}
          />
        ) : null}
        <p
          className={notice?.error ? 'form-error' : 'hint'}
          role={notice?.error ? 'alert' : 'status'}
          aria-live="polite"
        >
          {notice?.text ?? ''}
        </p>
        <h3 id={ids.chosen} className="mt-picker__heading">
          {T.lotsUsed}
        </h3>
        {chosen.length ? (
          <ul className="mt-chips" aria-labelledby={ids.chosen}>
            {chosen.map((lotNumber) => (
              <li key={lotNumber} className="mt-chip">
                <span className="mono">{lotNumber}</span>
                <button
                  type="button"
                  className="button button--ghost mt-chip__remove"
                  aria-label={T.removeLot(lotNumber)}
                  onClick={() => setChosen((current) => current.filter((item) => item !== lotNumber))}
                >
                  <Icon name="close" size={14} />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{T.noLotsRecorded}</p>
        )}
        <label htmlFor={ids.machine}>{T.machine}</label>
        <input
          id={ids.machine}
          value={machine}
          maxLength={100}
          onChange={(event) => setMachine(event.target.value)}
        />
        <ActionError message={error} />
      </div>
    </Dialog>
  );
}
