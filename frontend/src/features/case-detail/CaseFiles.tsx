import { useId, useState, type ReactNode } from 'react';
import type { Case, CaseFile, User } from '@alignerflow/domain';
import { caseWorkApi } from '../case-shared/caseWorkApi';
import { CASE_WORK_UI_TEXTS as W } from '../case-shared/caseWorkTexts';
import { invalidInput } from './invalidInput';
import { FileCard } from './FileCard';
import { PhotoViewerDialog } from './PhotoViewerDialog';
import { PurgeFileDialog } from './PurgeFileDialog';
import { StlViewerDialog } from './StlViewerDialog';
import { TextPromptDialog } from './TextPromptDialog';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

interface CaseFilesProps {
  item: Case;
  canAnalyze: boolean;
  onOpenExternal: (url: string) => void;
  /** 'Add files' (staff, the case's doctor), from the app's case screen parts. */
  addFiles?: ReactNode;
  /** A Manager's 'Remove': with the user and commands. */
  work?: { user: User; commands: CaseCommandRunner; canRemove: boolean };
}

type Viewer = { kind: 'photo'; file: CaseFile } | { kind: 'stl'; file: CaseFile } | null;

/** 'Case Files': the grid of files with what each type offers, and the photo and 3D viewers. */
export function CaseFiles({ item, canAnalyze, onOpenExternal, addFiles, work }: CaseFilesProps) {
  const titleId = useId();
  const [viewer, setViewer] = useState<Viewer>(null);
  const [removing, setRemoving] = useState<CaseFile | null>(null);
  const [purging, setPurging] = useState<CaseFile | null>(null);
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.caseFiles}</h2>
      {addFiles}
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
              onRemove={work?.canRemove ? setRemoving : undefined}
              onPurge={work?.canRemove ? setPurging : undefined}
            />
          ))}
        </ul>
      )}
      {viewer?.kind === 'photo' ? (
        <PhotoViewerDialog file={viewer.file} onClose={() => setViewer(null)} />
      ) : null}
      {viewer?.kind === 'stl' ? <StlViewerDialog file={viewer.file} onClose={() => setViewer(null)} /> : null}
      {purging && work ? (
        <PurgeFileDialog
          item={item}
          file={purging}
          commands={work.commands}
          onClose={() => setPurging(null)}
        />
      ) : null}
      {removing && work ? (
        <TextPromptDialog
          title={W.removeTitle(removing.name)}
          label={W.removeReason}
          hint={W.removeHint}
          submitLabel={W.remove}
          danger
          validate={(reason) =>
            invalidInput(item, work.user, { type: 'RemoveFile', url: removing.url, reason })
          }
          onSubmit={(reason) =>
            work.commands.run('removeFile', () => caseWorkApi.removeFile(item, removing.url, reason))
          }
          busy={work.commands.busy === 'removeFile'}
          error={work.commands.errors.removeFile}
          onClose={() => {
            setRemoving(null);
            work.commands.clearError('removeFile');
          }}
        />
      ) : null}
    </section>
  );
}
