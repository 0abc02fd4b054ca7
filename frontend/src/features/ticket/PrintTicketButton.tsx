import { useEffect, useState } from 'react';
import { casePayload, type Case } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { PrintSheet } from '../../components/PrintSheet';
import { qrDataUrl } from '../../components/qrImage';
import { TICKET_TEXTS as T } from './texts';
import { WorkTicket } from './WorkTicket';
import { errorMessage } from '../../api/errorMessage';

/**
 * 'Print ticket': puts the ticket on the page's print sheet (the QR dialog's, so printing shows
 * it alone), and prints once its QR image is drawn: a print started earlier could leave the
 * code blank. The sheet goes when the print dialog closes. No new window.
 */
export function PrintTicketButton({ item }: { item: Case }) {
  const [printing, setPrinting] = useState(false);
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    if (!printing) return;
    let active = true;
    qrDataUrl(casePayload(item.id)).then(
      (dataUrl) => active && setQr(dataUrl),
      (error: unknown) => {
        if (!active) return;
        console.error('Ticket QR failed', error);
        toast(T.failed, errorMessage(error), 'error');
        setPrinting(false);
      },
    );
    const done = () => {
      setPrinting(false);
      setQr(null);
    };
    window.addEventListener('afterprint', done);
    return () => {
      active = false;
      window.removeEventListener('afterprint', done);
    };
  }, [printing, item.id]);

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => setPrinting(true)}
        disabled={printing && !qr}
      >
        <Icon name="printer" />
        {printing && !qr ? T.preparing : T.printTicket}
      </button>
      {printing && qr ? (
        <PrintSheet>
          <WorkTicket item={item} qrDataUrl={qr} onQrLoaded={() => window.print()} />
        </PrintSheet>
      ) : null}
    </>
  );
}
