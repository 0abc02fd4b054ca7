import type { Case } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { PrintSheet } from '../../components/PrintSheet';
import { QR_TEXTS } from './texts';
import { useCaseQr } from './useCaseQr';

export interface CaseQrDialogProps {
  case: Case;
  onClose: () => void;
}

/** 'Case QR Code': the case's QR (type 4, level M) with its id and patient, Print and Download. */
export function CaseQrDialog({ case: given, onClose }: CaseQrDialogProps) {
  const item = useCache((state) => state.cases.find((candidate) => candidate.id === given.id)) ?? given;
  const qr = useCaseQr(given.id);
  const ready = qr.status === 'ready';

  return (
    <Dialog
      title={QR_TEXTS.caseTitle}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => window.print()}
            disabled={!ready}
          >
            {QR_TEXTS.print}
          </button>
          {ready ? (
            <a
              className="button button--primary qr-download"
              href={qr.dataUrl}
              download={QR_TEXTS.downloadName(item.id)}
            >
              <Icon name="download" />
              {QR_TEXTS.download}
            </a>
          ) : (
            <button type="button" className="button button--primary" disabled>
              <Icon name="download" />
              {QR_TEXTS.download}
            </button>
          )}
        </>
      }
    >
      <div className="qr-card">
        {qr.status === 'loading' ? (
          <div className="qr-card__placeholder" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>{QR_TEXTS.generating}</span>
          </div>
        ) : null}
        {ready ? <img className="qr-card__image" src={qr.dataUrl} alt={QR_TEXTS.qrAlt(item.id)} /> : null}
        {qr.status === 'error' ? (
          <p className="form-error" role="alert">
            {qr.message}
          </p>
        ) : null}
        <p className="qr-card__id mono">{item.id}</p>
        <p className="qr-card__patient">{item.patientName}</p>
      </div>
      {ready ? (
        <PrintSheet>
          <div className="print-sheet__case">
            <img src={qr.dataUrl} alt="" />
            <p className="mono">{item.id}</p>
            <p>{item.patientName}</p>
          </div>
        </PrintSheet>
      ) : null}
    </Dialog>
  );
}
