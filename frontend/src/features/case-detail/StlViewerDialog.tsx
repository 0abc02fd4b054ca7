import { lazy, Suspense } from 'react';
import type { CaseFile } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { ViewerErrorBoundary } from './ViewerErrorBoundary';

// three.js and react-three-fiber stay out of the initial bundle: fetched when a model is opened.
const StlViewer = lazy(() => import('./StlViewer'));

/** 3D review of an STL file (beyond the spec): orbit, zoom and reset, with the download at hand. */
export function StlViewerDialog({ file, onClose }: { file: CaseFile; onClose: () => void }) {
  return (
    <Dialog
      title={T.stlViewerTitle(file.name)}
      onClose={onClose}
      size="large"
      footer={
        <a className="button cd-anchor button--secondary" href={file.url} download={file.name}>
          <Icon name="download" />
          {T.download}
        </a>
      }
    >
      <ViewerErrorBoundary
        fallback={
          <p className="form-error" role="alert">
            {T.stlFailed}
          </p>
        }
      >
        <Suspense
          fallback={
            <p className="cd-stl__status" role="status">
              <span className="spinner cd-spinner" aria-hidden="true" />
              {T.stlLoading}
            </p>
          }
        >
          <StlViewer url={file.url} name={file.name} />
        </Suspense>
      </ViewerErrorBoundary>
    </Dialog>
  );
}
