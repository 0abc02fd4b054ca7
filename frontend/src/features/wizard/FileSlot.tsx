import { useId } from 'react';
import { Icon } from '../../components/Icon';
import { WIZARD_TEXTS } from './texts';
import type { SlotDefinition } from './uploadSlots';
import type { SlotState } from './useUploads';

interface FileSlotProps {
  slot: SlotDefinition;
  state: SlotState | undefined;
  onChoose: (slot: SlotDefinition, file: File) => void;
  onRemove: (slot: SlotDefinition) => void;
}

/** One upload slot: the file input, the chosen file's name, its upload progress and a Remove button. */
export function FileSlot({ slot, state, onChoose, onRemove }: FileSlotProps) {
  const id = useId();
  const status = state?.status;
  return (
    <div className={`file-slot${status ? ` file-slot--${status}` : ''}`}>
      <div className="file-slot__head">
        <span className="file-slot__label" id={`${id}-label`}>
          <Icon name={slot.kind === 'STL' ? 'folder' : 'upload'} />
          {slot.label}
        </span>
        <label className="button button--secondary button--small file-slot__pick">
          <span aria-hidden="true">{state ? WIZARD_TEXTS.replace : WIZARD_TEXTS.chooseFile}</span>
          <input
            id={id}
            className="file-slot__input"
            type="file"
            accept={slot.accept}
            aria-label={slot.label}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) onChoose(slot, file);
              // The same file may be chosen again after a failure.
              event.target.value = '';
            }}
          />
        </label>
      </div>
      <div className="file-slot__status">
        {state ? (
          <>
            <span className="file-slot__name" title={state.fileName}>
              {state.fileName}
            </span>
            {status === 'uploading' ? (
              <>
                <progress
                  className="file-slot__progress"
                  max={100}
                  value={state.progress}
                  aria-label={WIZARD_TEXTS.uploadProgress(slot.label)}
                />
                <span className="small muted">{WIZARD_TEXTS.uploading(state.progress)}</span>
              </>
            ) : null}
            {status === 'done' ? (
              <span className="file-slot__done small">
                <Icon name="check" size={14} />
                {WIZARD_TEXTS.uploaded}
                {state.result?.size ? ` · ${state.result.size}` : ''}
              </span>
            ) : null}
            {status === 'error' ? (
              <span className="file-slot__failed small">
                <Icon name="alert" size={14} />
              </span>
            ) : null}
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => onRemove(slot)}
              aria-label={WIZARD_TEXTS.removeFile(slot.label)}
            >
              {WIZARD_TEXTS.remove}
            </button>
          </>
        ) : (
          <span className="small muted">{WIZARD_TEXTS.noFile}</span>
        )}
      </div>
    </div>
  );
}
