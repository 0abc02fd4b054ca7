import type { Case } from '@alignerflow/domain';
import { request } from '../../api/client';

export type ScanAnswer =
  { kind: 'case'; case: Case } | { kind: 'stage'; case: Case; started: number; completed: number | null };

/** POST /scan {payload}: a case QR finds the case, a stage QR starts its stage (spec section 4). */
export function postScan(payload: string): Promise<ScanAnswer> {
  return request<ScanAnswer>('POST', '/scan', { body: { payload }, quietStatuses: [404, 409] });
}
