import { Dialog } from '../../components/Dialog';
import { CASE_DETAIL_TEXTS as T } from './texts';

/**
 * The 'External Simulation Viewer': a third-party simulation page inside a sandboxed frame
 * (scripts run, but it cannot navigate the app, open popups or submit forms) that is sent no referrer.
 */
export function ExternalViewerDialog({ url, onClose }: { url: string; onClose: () => void }) {
  return (
    <Dialog
      title={T.externalViewer}
      onClose={onClose}
      size="large"
      footer={
        <a
          className="button cd-anchor button--secondary"
          href={url}
          target="_blank"
          rel="noopener noreferrer"
        >
          {T.openExternal}
        </a>
      }
    >
      <iframe
        className="cd-external-frame"
        src={url}
        title={T.externalViewerFrame}
        sandbox="allow-scripts allow-same-origin"
        referrerPolicy="no-referrer"
        allow="fullscreen"
      />
    </Dialog>
  );
}
