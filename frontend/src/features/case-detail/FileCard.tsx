import { CASE_ERASURE, type CaseFile } from '@alignerflow/domain';
import { Icon, type IconName } from '../../components/Icon';
import { CASE_WORK_UI_TEXTS } from '../case-shared/caseWorkTexts';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { usePhotoAnalysis } from './usePhotoAnalysis';

interface FileCardProps {
  caseId: string;
  file: CaseFile;
  canAnalyze: boolean;
  onViewPhoto: (file: CaseFile) => void;
  onViewStl: (file: CaseFile) => void;
  onOpenExternal: (url: string) => void;
  /** A Manager's 'Remove' (asks for a reason first). */
  onRemove?: (file: CaseFile) => void;
  /** A Manager's 'Purge': the file's bytes deleted for good (PurgeFileDialog). */
  onPurge?: (file: CaseFile) => void;
}

const ICONS: Record<CaseFile['type'], IconName> = {
  STL: 'tooth',
  Photo: 'folder',
  Document: 'folder',
  'Simulation Video': 'play',
  'External Link': 'search',
};

/** A real stored file (the spec's placeholder url '#' is none). */
const isReal = (url: string) => !!url && url !== '#';

/**
 * One file of the Case Files grid: name, type and size, and what can be done with it — photos
 * are viewed, downloaded and analysed; STL files open in the 3D viewer and download; documents
 * download; simulation videos open in a new tab; external links open in the sandboxed viewer.
 */
export function FileCard({
  caseId,
  file,
  canAnalyze,
  onViewPhoto,
  onViewStl,
  onOpenExternal,
  onRemove,
  onPurge,
}: FileCardProps) {
  const { analysis, analyze } = usePhotoAnalysis(caseId, file.url);
  const real = isReal(file.url);
  const downloadable = real && (file.type === 'STL' || file.type === 'Document' || file.type === 'Photo');

  return (
    <li className={`cd-file cd-file--${file.type === 'Photo' ? 'photo' : 'plain'}`}>
      {file.type === 'Photo' && real ? (
        <button
          type="button"
          className="cd-file__thumb"
          onClick={() => onViewPhoto(file)}
          tabIndex={-1}
          aria-hidden="true"
        >
          <img src={file.url} alt="" loading="lazy" />
        </button>
      ) : (
        <span className="cd-file__icon" aria-hidden="true">
          <Icon name={ICONS[file.type] ?? 'folder'} size={22} />
        </span>
      )}
      <div className="cd-file__meta">
        <span className="cd-file__name" title={file.name}>
          {file.name}
        </span>
        <span className="cd-file__size muted small">
          {file.type} · {file.size}
        </span>
      </div>
      <div className="cd-file__actions">
        {file.type === 'Photo' && real ? (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => onViewPhoto(file)}
            aria-label={T.viewFile(file.name)}
          >
            {T.view}
          </button>
        ) : null}
        {file.type === 'STL' && real ? (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => onViewStl(file)}
            aria-label={T.view3dFile(file.name)}
          >
            <Icon name="tooth" size={14} />
            {T.view3d}
          </button>
        ) : null}
        {file.type === 'External Link' && real ? (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => onOpenExternal(file.url)}
            aria-label={T.openFile(file.name)}
          >
            {T.open}
          </button>
        ) : null}
        {file.type === 'Simulation Video' && real ? (
          <a
            className="button cd-anchor button--small button--secondary"
            href={file.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${T.openFile(file.name)} ${T.openInNewTab}`}
          >
            {T.open}
          </a>
        ) : null}
        {downloadable ? (
          <a
            className="button cd-anchor button--small button--ghost"
            href={file.url}
            download={file.name}
            aria-label={T.downloadFile(file.name)}
          >
            <Icon name="download" size={14} />
            {T.download}
          </a>
        ) : null}
        {onRemove ? (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => onRemove(file)}
            aria-label={CASE_WORK_UI_TEXTS.removeFile(file.name)}
          >
            <Icon name="trash" size={14} />
            {CASE_WORK_UI_TEXTS.remove}
          </button>
        ) : null}
        {onPurge && real ? (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => onPurge(file)}
            aria-label={CASE_ERASURE.purgeTitle(file.name)}
          >
            <Icon name="trash" size={14} />
            {CASE_ERASURE.purgeAction}
          </button>
        ) : null}
        {file.type === 'Photo' && real && canAnalyze ? (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => void analyze()}
            disabled={analysis.status === 'running'}
            aria-label={T.analyzeFile(file.name)}
          >
            {T.analyze}
          </button>
        ) : null}
      </div>
      {analysis.status === 'running' ? (
        <p className="cd-ai cd-ai--running" role="status">
          <span className="spinner cd-spinner" aria-hidden="true" />
          {T.analyzing}
        </p>
      ) : null}
      {analysis.status === 'done' ? (
        <div className="cd-ai cd-ai--done" role="status">
          <h4 className="cd-ai__title">{T.aiResult}</h4>
          <p>{analysis.text}</p>
        </div>
      ) : null}
      {analysis.status === 'failed' ? (
        <div className="cd-ai cd-ai--failed" role="alert">
          <p className="text-danger">{T.aiFailed}</p>
          <p className="small">{analysis.reason}</p>
        </div>
      ) : null}
    </li>
  );
}
