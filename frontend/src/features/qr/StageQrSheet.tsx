import type { Case } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Dialog } from '../../components/Dialog';
import { PrintSheet } from '../../components/PrintSheet';
import { QR_TEXTS } from './texts';
import { useStageQrs } from './useStageQrs';

export interface StageQrSheetProps {
  case: Case;
  onClose: () => void;
}

/** 'Aligner Stage QR Codes': one QR per stage, labelled 'Stage N / total', for the patient; printable. */
export function StageQrSheet({ case: given, onClose }: StageQrSheetProps) {
  const item = useCache((state) => state.cases.find((candidate) => candidate.id === given.id)) ?? given;
  const stages = item.staging.map((entry) => entry.stageNumber);
  const total = stages.length;
  const qrs = useStageQrs(item.id, stages);
  const ready = qrs.status === 'ready';

  const heading = (
    <div className="stage-qr-sheet__head">
      <p className="mono">{item.id}</p>
      <p className="stage-qr-sheet__patient">{item.patientName}</p>
    </div>
  );
  const grid = ready ? (
    <ul className="stage-qr-grid">
      {qrs.images.map(({ stage, dataUrl }) => (
        <li key={stage} className="stage-qr-grid__item">
          <img src={dataUrl} alt={QR_TEXTS.stageQrAlt(stage, total)} />
          <span className="stage-qr-grid__label">{QR_TEXTS.stageLabel(stage, total)}</span>
          <span className="stage-qr-grid__meta mono">{item.id}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return (
    <Dialog
      title={QR_TEXTS.stageTitle}
      onClose={onClose}
      size="large"
      footer={
        <button
          type="button"
          className="button button--primary"
          onClick={() => window.print()}
          disabled={!ready || total === 0}
        >
          {QR_TEXTS.print}
        </button>
      }
    >
      {heading}
      {total === 0 ? <p className="empty">{QR_TEXTS.noStages}</p> : null}
      {total > 0 && qrs.status === 'loading' ? (
        <div className="qr-card__placeholder" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>{QR_TEXTS.generating}</span>
        </div>
      ) : null}
      {qrs.status === 'error' ? (
        <p className="form-error" role="alert">
          {qrs.message}
        </p>
      ) : null}
      {grid}
      {ready && total > 0 ? (
        <PrintSheet>
          <div className="print-sheet__stages">
            <h1>
              {QR_TEXTS.stageTitle} — {item.patientName}
            </h1>
            {heading}
            {grid}
          </div>
        </PrintSheet>
      ) : null}
    </Dialog>
  );
}
