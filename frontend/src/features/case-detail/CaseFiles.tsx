import { useId, useState } from 'react';
import type { Case, CaseFile } from '@alignerflow/domain';
import { FileCard } from './FileCard';
import { PhotoViewerDialog } from './PhotoViewerDialog';
import { StlViewerDialog } from './StlViewerDialog';
import { CASE_DETAIL_TEXTS as T } from './texts';

interface CaseFilesProps {
  item: Case;
  canAnalyze: boolean;
  onOpenExternal: (url: string) => void;
}

type Viewer = { kind: 'photo'; file: CaseFile } | { kind: 'stl'; file: CaseFile } | null;

/** 'Case Files': the grid of files with what each type offers, and the photo and 3D viewers. */
export function CaseFiles({ item, canAnalyze, onOpenExternal }: CaseFilesProps) {
  const titleId = useId();
  const [viewer, setViewer] = useState<Viewer>(null);
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.caseFiles}</h2>
      {item.files.length === 0 ? (
        <p className="muted">{T.noFiles}</p>
      ) : (
        <ul className="cd-files">
          {item.files.map((file, index) => (
            <FileCard
              key={`${file.url}-${index}`}
              caseId={item.id}
              file={file}
              canAnalyze={canAnalyze}
              onViewPhoto={(photo) => setViewer({ kind: 'photo', file: photo })}
              onViewStl={(stl) => setViewer({ kind: 'stl', file: stl })}
              onOpenExternal={onOpenExternal}
            />
          ))}
        </ul>
      )}
      {viewer?.kind === 'photo' ? (
        <PhotoViewerDialog file={viewer.file} onClose={() => setViewer(null)} />
      ) : null}
      {viewer?.kind === 'stl' ? <StlViewerDialog file={viewer.file} onClose={() => setViewer(null)} /> : null}
    </section>
  );
}
