import type { Case, ExpectedVersion, StagingAction } from '@alignerflow/domain';
import { request } from '../../api/client';

/** POST /cases/{id}/staging/{n}/start|complete|reopen|reset with the version the user saw. */
export function changeStage(
  item: Pick<Case, 'id' | 'version'>,
  stageNumber: number,
  action: StagingAction,
): Promise<Case> {
  return request<Case>('POST', `/cases/${encodeURIComponent(item.id)}/staging/${stageNumber}/${action}`, {
    body: { expectedVersion: item.version } satisfies ExpectedVersion,
  });
}
