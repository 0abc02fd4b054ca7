import type { ScanAnswer, ScanBody } from '@alignerflow/domain';
import { request } from '../../api/client';

/** POST /scan {payload}: a case QR finds the case, a stage QR starts its stage (spec section 4). */
export function postScan(payload: string): Promise<ScanAnswer> {
  return request<ScanAnswer>('POST', '/scan', {
    body: { payload } satisfies ScanBody,
    quietStatuses: [404, 409],
  });
}
