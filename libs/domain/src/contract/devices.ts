/** The bodies and answers of api.md's "Devices: materials, device record, statement, shipping". */
import type { CaseStatus } from '../case/status.js';
import type { LotKind } from '../materials/lots.js';
import type { Carrier } from '../materials/shipping.js';
import type { ExpectedVersion } from './cases.js';

/** `POST /materials/lots`. */
export interface RegisterLotBody {
  kind: LotKind | string;
  product: string;
  lotNumber: string;
  supplier?: string | null;
  expiresOn?: string | null;
}

/** `PUT /materials/settings`: any of the lab's settings; the others stay. */
export interface MaterialSettingsBody {
  requireLots?: boolean;
  transitDays?: number;
  manufacturerName?: string;
  manufacturerAddress?: string;
  responsiblePerson?: string;
  conformityText?: string;
}

/** `GET /materials/lots/{lotNumber}/cases`: one row per case and stage the lot went into. */
export interface RecallRow {
  caseId: string;
  doctorUsername: string | null;
  clinicName: string;
  status: CaseStatus;
  stage: CaseStatus;
  usedAt: string;
}

/** `POST /cases/{id}/shipments`. */
export interface ShipmentBody extends ExpectedVersion {
  carrier: Carrier | string;
  trackingNumber: string;
  shippedAt?: string;
}
