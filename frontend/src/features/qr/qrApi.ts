import type { CaseQrAnswer } from '@alignerflow/domain';
import { request } from '../../api/client';

/** POST /cases/{id}/qr: the case QR's payload; a Technician takes the current stage (spec section 4). */
export function generateCaseQr(caseId: string): Promise<CaseQrAnswer> {
  return request<CaseQrAnswer>('POST', `/cases/${encodeURIComponent(caseId)}/qr`, { body: {} });
}
