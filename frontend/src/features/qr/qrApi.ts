import type { Case } from '@alignerflow/domain';
import { request } from '../../api/client';

/** POST /cases/{id}/qr: the case QR's payload; a Technician takes the current stage (spec section 4). */
export function generateCaseQr(caseId: string): Promise<{ case: Case; payload: string }> {
  return request('POST', `/cases/${encodeURIComponent(caseId)}/qr`, { body: {} });
}
