import { checkText } from '../validation/validation.js';
import { DEVICE_TEXTS } from './texts.js';

export type Carrier = 'ups' | 'fedex' | 'dhl' | 'usps' | 'other';
export const CARRIERS: readonly Carrier[] = ['ups', 'fedex', 'dhl', 'usps', 'other'];
export const CARRIER_NAMES: Record<Carrier, string> = {
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  usps: 'USPS',
  other: 'Other carrier',
};

/** One shipment of a case's devices (Case.shipments). */
export interface Shipment {
  carrier: Carrier;
  trackingNumber: string;
  /** The carrier's public tracking page for the number; null for 'other'. */
  trackingUrl: string | null;
  shippedAt: string;
  by: string;
}

const TRACKING_PAGES: Record<Exclude<Carrier, 'other'>, string> = {
  ups: 'https://www.ups.com/track?tracknum=',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr=',
  dhl: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=',
};

export function trackingUrl(carrier: Carrier, trackingNumber: string): string | null {
  if (carrier === 'other') return null;
  return `${TRACKING_PAGES[carrier]}${encodeURIComponent(trackingNumber)}`;
}

export interface ShipmentInput {
  carrier: Carrier;
  trackingNumber: string;
  shippedAt: string;
}

/** The checks of POST /cases/{id}/shipments; `now` stands in for a missing shippedAt. */
export function checkShipmentInput(
  input: { carrier?: unknown; trackingNumber?: unknown; shippedAt?: unknown },
  now: string,
): { value: ShipmentInput } | { error: string } {
  if (typeof input.carrier !== 'string' || !(CARRIERS as readonly string[]).includes(input.carrier))
    return { error: DEVICE_TEXTS.carrier };
  const number = checkText('Tracking number', input.trackingNumber, { max: 64 });
  if ('error' in number) return number;
  if (!number.value) return { error: DEVICE_TEXTS.trackingNumberRequired };
  if (!/^[A-Za-z0-9 -]+$/.test(number.value)) return { error: DEVICE_TEXTS.trackingNumberChars };
  let shippedAt = now;
  if (input.shippedAt !== undefined && input.shippedAt !== null && input.shippedAt !== '') {
    const parsed = typeof input.shippedAt === 'string' ? Date.parse(input.shippedAt) : NaN;
    if (Number.isNaN(parsed)) return { error: DEVICE_TEXTS.shippedAt };
    shippedAt = new Date(parsed).toISOString();
  }
  return { value: { carrier: input.carrier as Carrier, trackingNumber: number.value, shippedAt } };
}
