/** The checks of a backup case's device fields: stage records, shipments, received (restore keeps them). */
import type { Case } from '../case/case.js';
import { parseStatus } from '../case/status.js';
import { checkText } from '../validation/validation.js';
import { fail, isObject, list, optionalDateTime, type Raw } from './backup-fields.js';
import type { StageRecord } from '../case/records.js';
import { CARRIERS, trackingUrl, type Carrier, type Shipment } from '../materials/shipping.js';

function name(label: string, value: unknown, max = 200): string {
  const checked = checkText(label, value ?? '', { max });
  return 'error' in checked ? fail(checked.error) : checked.value;
}

function stageRecords(value: unknown): StageRecord[] {
  return list('stageRecords', value).map((raw, index) => {
    const label = `stageRecords[${index}]`;
    if (!isObject(raw)) fail(`${label} must be an object.`);
    const entry = raw as Raw;
    const status = parseStatus(String(entry.status)) ?? fail(`${label}.status is unknown.`);
    const completedAt =
      optionalDateTime(`${label}.completedAt`, entry.completedAt) ??
      fail(`${label}.completedAt is required.`);
    const lots = list(`${label}.lots`, entry.lots ?? [], 100).map((lot) => name(`${label}.lots`, lot, 64));
    return {
      status,
      completedAt,
      by: name(`${label}.by`, entry.by) || null,
      lots,
      machine: name(`${label}.machine`, entry.machine) || null,
    };
  });
}

function shipments(value: unknown): Shipment[] {
  return list('shipments', value, 100).map((raw, index) => {
    const label = `shipments[${index}]`;
    if (!isObject(raw)) fail(`${label} must be an object.`);
    const entry = raw as Raw;
    if (!(CARRIERS as readonly unknown[]).includes(entry.carrier)) fail(`${label}.carrier is unknown.`);
    const carrier = entry.carrier as Carrier;
    const trackingNumber = name(`${label}.trackingNumber`, entry.trackingNumber, 64);
    if (!/^[A-Za-z0-9 -]+$/.test(trackingNumber)) fail(`${label}.trackingNumber is not a tracking number.`);
    const shippedAt =
      optionalDateTime(`${label}.shippedAt`, entry.shippedAt) ?? fail(`${label}.shippedAt is required.`);
    // The link is derived again, never taken from the file: the browser opens it.
    return {
      carrier,
      trackingNumber,
      trackingUrl: trackingUrl(carrier, trackingNumber),
      shippedAt,
      by: name(`${label}.by`, entry.by),
    };
  });
}

/** Only the fields the backup has: a case of an older backup stays without them. */
export function deviceFields(input: Raw): Pick<Case, 'stageRecords' | 'shipments' | 'receivedAt'> {
  const receivedAt = optionalDateTime('receivedAt', input.receivedAt);
  return {
    ...(input.stageRecords !== undefined && input.stageRecords !== null
      ? { stageRecords: stageRecords(input.stageRecords) }
      : {}),
    ...(input.shipments !== undefined && input.shipments !== null
      ? { shipments: shipments(input.shipments) }
      : {}),
    ...(receivedAt ? { receivedAt } : {}),
  };
}
