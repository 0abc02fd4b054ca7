import { addDays, isIsoDate } from '../validation/validation.js';
import type { Shipment } from './shipping.js';

/** What the ship-by rule reads of a case. */
export interface ShipByCase {
  deliveryDate?: string | null;
  shipments?: Shipment[];
}

/**
 * The date a case must leave the lab to arrive by its due date: the due date minus the lab's
 * transit days, for a case not yet shipped; otherwise the due date itself.
 */
export function shipByDate(item: ShipByCase, transitDays = 0): string | null {
  const due = item.deliveryDate ?? null;
  if (!due || transitDays <= 0 || item.shipments?.length || !isIsoDate(due)) return due;
  return addDays(due, -transitDays);
}
