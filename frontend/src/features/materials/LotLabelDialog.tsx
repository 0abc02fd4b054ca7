import { useEffect, useState } from 'react';
import { lotQrPayload, type Lot } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { PrintSheet } from '../../components/PrintSheet';
import { MATERIALS_TEXTS as T } from './texts';

/** A PNG of the lot's QR code; the version grows with a long lot number (labels are printed, not sized). */
async function lotQr(lotNumber: string): Promise<string> {
  type QrModule = typeof import('qrcode');
  const module = (await import('qrcode')) as QrModule & { default?: QrModule };
  const QRCode = module.default ?? module;
  return QRCode.toDataURL(lotQrPayload(lotNumber), { errorCorrectionLevel: 'M', width: 320, margin: 2 });
}

/** The lot's label: its QR code (read by the stage completion's scanner), number, product and expiry. */
export function LotLabelDialog({ lot, onClose }: { lot: Lot; onClose: () => void }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void lotQr(lot.lotNumber).then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [lot.lotNumber]);
  return (
    <Dialog
      title={T.labelTitle(lot.lotNumber)}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {T.close}
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => window.print()}
            data-autofocus
          >
            <Icon name="printer" />
            {T.printLabel}
          </button>
        </>
      }
    >
      <div className="mt-label">
        {image ? (
          <img src={image} alt={lot.lotNumber} className="mt-label__qr" />
        ) : (
          <span className="spinner" />
        )}
        <p className="mono mt-label__number">{lot.lotNumber}</p>
        <p>{lot.product}</p>
        <p className="muted">
          {T.expiresOn} {lot.expiresOn ? formatDate(lot.expiresOn) : T.noExpiry}
        </p>
      </div>
      {image ? (
        <PrintSheet>
          <div className="print-sheet__case">
            <img src={image} alt="" />
            <p className="mono">{lot.lotNumber}</p>
            <p>{lot.product}</p>
            <p>
              {T.expiresOn} {lot.expiresOn ? formatDate(lot.expiresOn) : T.noExpiry}
            </p>
          </div>
        </PrintSheet>
      ) : null}
    </Dialog>
  );
}
