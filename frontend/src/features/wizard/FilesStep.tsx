import { FileSlot } from './FileSlot';
import type { SlotDefinition, SlotKey } from './uploadSlots';
import type { SlotState } from './useUploads';

interface FilesStepProps {
  hint: string;
  slots: SlotDefinition[];
  states: Partial<Record<SlotKey, SlotState>>;
  onChoose: (slot: SlotDefinition, file: File) => void;
  onRemove: (slot: SlotDefinition) => void;
}

/** The STL Files and Photos steps: a grid of upload slots, all optional. */
export function FilesStep({ hint, slots, states, onChoose, onRemove }: FilesStepProps) {
  return (
    <div className="wizard-step">
      <p className="muted">{hint}</p>
      <div className="file-slots">
        {slots.map((slot) => (
          <FileSlot
            key={slot.key}
            slot={slot}
            state={states[slot.key]}
            onChoose={onChoose}
            onRemove={onRemove}
          />
        ))}
      </div>
    </div>
  );
}
