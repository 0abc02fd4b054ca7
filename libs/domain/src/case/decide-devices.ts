import type { Case } from './case.js';
import type { LotUse } from './commands.js';
import { accept, conflict, forbidden, invalid, type Decision } from './decision.js';
import { STATUS_LABELS, type CaseStatus } from './status.js';
import { isAssignedDoctor } from './case-access.js';
import type { Actor } from '../permissions/roles.js';
import { checkText } from '../validation/validation.js';
import { isLotExpired } from '../materials/lots.js';
import { checkShipmentInput } from '../materials/shipping.js';
import { DEVICE_TEXTS } from '../materials/texts.js';

/** The stages whose completion records the material lot when the lab requires it. */
export const LOT_STAGES: readonly CaseStatus[] = [STATUS_LABELS.ModelPrinting, STATUS_LABELS.Thermoforming];

export const MACHINE_MAX = 100;

/**
 * The materials a stage's completion records: the lots (each registered and not expired on
 * `day`) and the machine. A missing lot is a conflict when the lab requires one at this stage.
 */
export function checkStageMaterials(
  status: CaseStatus,
  input: { lots?: LotUse[]; machine?: unknown; requireLots?: boolean },
  day: string,
): { value: { lots?: string[]; machine?: string } } | { rejection: Decision } {
  const uses = input.lots ?? [];
  if (!uses.length && input.requireLots && LOT_STAGES.includes(status))
    return { rejection: conflict(DEVICE_TEXTS.lotRequired) };
  const lots: string[] = [];
  for (const use of uses) {
    if (!use.lot) return { rejection: invalid(DEVICE_TEXTS.unknownLot(use.lotNumber)) };
    if (isLotExpired(use.lot, day))
      return { rejection: invalid(DEVICE_TEXTS.lotExpired(use.lot.lotNumber, use.lot.expiresOn!)) };
    if (!lots.includes(use.lot.lotNumber)) lots.push(use.lot.lotNumber);
  }
  const machine = checkText('Machine', input.machine, { max: MACHINE_MAX });
  if ('error' in machine) return { rejection: invalid(machine.error) };
  return {
    value: { ...(lots.length ? { lots } : {}), ...(machine.value ? { machine: machine.value } : {}) },
  };
}

const SHIPPING_STATUSES: readonly CaseStatus[] = [STATUS_LABELS.PackagingLabeling, STATUS_LABELS.Delivery];
const SHIPPING_ROLES = ['Manager', 'Representative', 'Technician'];

/** POST /cases/{id}/shipments: from Packaging & Labeling or Delivery to Doctor, by lab staff. */
export function decideShipment(
  state: Case,
  input: { carrier: unknown; trackingNumber: unknown; shippedAt?: unknown },
  actor: Actor,
  now: string,
): Decision {
  if (!SHIPPING_STATUSES.includes(state.status)) return conflict(DEVICE_TEXTS.shipStatus);
  if (!SHIPPING_ROLES.includes(actor.role)) return forbidden(DEVICE_TEXTS.shipRoles);
  const checked = checkShipmentInput(input, now);
  if ('error' in checked) return invalid(checked.error);
  return accept({ type: 'ShipmentRecorded', data: checked.value });
}

/** POST /cases/{id}/received: at Delivery to Doctor, by the case's doctor or a Manager; once. */
export function decideReceived(state: Case, actor: Actor): Decision {
  if (state.status !== STATUS_LABELS.Delivery) return conflict(DEVICE_TEXTS.receivedStatus);
  if (actor.role !== 'Manager' && !isAssignedDoctor(actor, state))
    return forbidden(DEVICE_TEXTS.receivedRoles);
  if (state.receivedAt) return accept();
  return accept({ type: 'CaseReceived', data: {} });
}
