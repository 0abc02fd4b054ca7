import { CASE_ERASURE as T, type Case, type CaseFile } from '@alignerflow/domain';
import { TextPromptDialog } from './TextPromptDialog';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { erasureApi } from '../../api/erasureApi';

interface PurgeFileDialogProps {
  item: Case;
  file: CaseFile;
  commands: CaseCommandRunner;
  onClose: () => void;
}

/** A Manager's "Purge" of one file (a misfiled photo): asks for the reason, then deletes it for good. */
export function PurgeFileDialog({ item, file, commands, onClose }: PurgeFileDialogProps) {
  return (
    <TextPromptDialog
      title={T.purgeTitle(file.name)}
      label={T.reasonLabel}
      hint={T.purgeExplain}
      submitLabel={T.purgeConfirm}
      danger
      validate={(reason) => (reason.trim() ? undefined : T.reasonRequired)}
      onSubmit={(reason) => commands.run('purge', () => erasureApi.purge(item, file.url, reason))}
      busy={commands.busy === 'purge'}
      error={commands.errors.purge}
      onClose={() => {
        onClose();
        commands.clearError('purge');
      }}
    />
  );
}
