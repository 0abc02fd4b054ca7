import { useState, type ReactNode } from 'react';
import { LOT_STAGES, type Case, type CaseStatus } from '@alignerflow/domain';
import { caseDetailApi } from './caseDetailApi';
import { useCaseScreenParts } from './caseScreenParts';
import type { CaseCommandRunner } from './useCaseCommand';

/**
 * "Complete Stage & Advance" for the case screen and My Queue: at Model Printing and
 * Thermoforming it first asks for the lots and machine used (the lot picker); elsewhere it
 * advances at once. Both send the status the user saw (`fromStatus`).
 */
export function useStageAdvance(
  item: Pick<Case, 'id' | 'status'>,
  commands: CaseCommandRunner,
  onMoved?: (from: CaseStatus) => void,
): { start: () => void; dialog: ReactNode } {
  const { StageMaterials } = useCaseScreenParts();
  // The stage the picker was opened for: once the case has moved on (a 409 reloaded it), it closes.
  const [pickingFor, setPickingFor] = useState<CaseStatus | null>(null);
  const picking = pickingFor === item.status;

  const advance = async (lots: string[], machine: string) => {
    const from = item.status;
    const moved = await commands.run('advance', () =>
      caseDetailApi.advance(item, from, lots.length || machine ? { lots, machine } : undefined),
    );
    if (!moved) return;
    setPickingFor(null);
    onMoved?.(from);
  };

  const start = () => {
    if (StageMaterials && LOT_STAGES.includes(item.status)) {
      commands.clearError('advance');
      setPickingFor(item.status);
    } else void advance([], '');
  };

  const dialog =
    picking && StageMaterials ? (
      <StageMaterials
        stage={item.status}
        busy={commands.busy === 'advance'}
        error={commands.errors.advance}
        onComplete={(lots, machine) => void advance(lots, machine)}
        onClose={() => setPickingFor(null)}
      />
    ) : null;
  return { start, dialog };
}
