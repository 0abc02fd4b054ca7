import type { CaseFile } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { CASE_DETAIL_TEXTS as T } from './texts';

/** The 'Case Photo' viewer: the photo at full size, with its name and a download link. */
export function PhotoViewerDialog({ file, onClose }: { file: CaseFile; onClose: () => void }) {
  return (
    <Dialog
      title={T.casePhoto}
      onClose={onClose}
      size="large"
      footer={
        <a className="button cd-anchor button--secondary" href={file.url} download={file.name}>
          <Icon name="download" />
          {T.download}
        </a>
      }
    >
      <figure className="cd-photo">
        <img src={file.url} alt={file.name} />
        <figcaption className="muted small">{file.name}</figcaption>
      </figure>
    </Dialog>
  );
}
