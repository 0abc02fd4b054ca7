import { checkText, isIsoDate } from '../validation/validation.js';
import type { Actor } from '../permissions/roles.js';
import { DEVICE_TEXTS } from './texts.js';

export type LotKind = 'sheet' | 'resin' | 'other';
export const LOT_KINDS: readonly LotKind[] = ['sheet', 'resin', 'other'];

/** A registered material lot (api.md: Lot). */
export interface Lot {
  lotNumber: string;
  kind: LotKind;
  product: string;
  supplier: string | null;
  /** YYYY-MM-DD; null when the material does not expire. */
  expiresOn: string | null;
  addedAt: string;
  addedBy: string;
}

export type LotInput = Pick<Lot, 'lotNumber' | 'kind' | 'product' | 'supplier' | 'expiresOn'>;

export const LOTS_STREAM = 'materials-lots';
export const LOT_NUMBER_MAX = 64;

/** Lot numbers match whatever their letter case or surrounding spaces: labels are typed and scanned. */
export function lotKey(lotNumber: string): string {
  return lotNumber.trim().toUpperCase();
}

export interface LotRegisteredEvent {
  type: 'LotRegistered';
  data: LotInput;
}

/** The register: every lot by its key, and the stream version that made it. */
export interface LotRegister {
  lots: Map<string, Lot>;
  version: number;
}

export const emptyLotRegister = (): LotRegister => ({ lots: new Map(), version: 0 });

/** Folds one LotRegistered (stamped with who and when) into the register, in place. */
export function evolveLots(
  register: LotRegister,
  event: LotRegisteredEvent & { actor: Pick<Actor, 'username'> | null; at: string },
): LotRegister {
  const lot: Lot = { ...event.data, addedAt: event.at, addedBy: event.actor?.username ?? 'system' };
  register.lots.set(lotKey(lot.lotNumber), lot);
  register.version += 1;
  return register;
}

/** The checks of POST /materials/lots: the lot to register, or the first problem. */
export function checkLotInput(input: Record<string, unknown>): { value: LotInput } | { error: string } {
  const kind = input.kind;
  if (typeof kind !== 'string' || !(LOT_KINDS as readonly string[]).includes(kind))
    return { error: DEVICE_TEXTS.lotKind };
  const lotNumber = checkText('Lot number', input.lotNumber, { max: LOT_NUMBER_MAX });
  if ('error' in lotNumber) return lotNumber;
  if (!lotNumber.value) return { error: DEVICE_TEXTS.lotNumberRequired };
  const product = checkText('Product', input.product, { max: 200 });
  if ('error' in product) return product;
  if (!product.value) return { error: DEVICE_TEXTS.productRequired };
  const supplier = checkText('Supplier', input.supplier, { max: 200 });
  if ('error' in supplier) return supplier;
  const expiresOn = input.expiresOn;
  if (expiresOn !== undefined && expiresOn !== null && expiresOn !== '') {
    if (typeof expiresOn !== 'string' || !isIsoDate(expiresOn)) return { error: DEVICE_TEXTS.expiresOn };
  }
  return {
    value: {
      lotNumber: lotNumber.value,
      kind: kind as LotKind,
      product: product.value,
      supplier: supplier.value || null,
      expiresOn: typeof expiresOn === 'string' && expiresOn ? expiresOn : null,
    },
  };
}

/** Registering a lot: the event, or 409 when its number is taken. */
export function decideRegisterLot(
  register: LotRegister,
  input: LotInput,
): { ok: true; event: LotRegisteredEvent } | { ok: false; kind: 'conflict'; message: string } {
  if (register.lots.has(lotKey(input.lotNumber)))
    return { ok: false, kind: 'conflict', message: DEVICE_TEXTS.lotAlreadyRegistered(input.lotNumber) };
  return { ok: true, event: { type: 'LotRegistered', data: input } };
}

/** Whether the lot is past its expiry on `day` (YYYY-MM-DD, the lab's). */
export function isLotExpired(lot: Pick<Lot, 'expiresOn'>, day: string): boolean {
  return !!lot.expiresOn && lot.expiresOn < day;
}

/** Days until the lot expires (negative once expired); undefined when it does not expire. */
export function daysUntilExpiry(lot: Pick<Lot, 'expiresOn'>, day: string): number | undefined {
  if (!lot.expiresOn) return undefined;
  return Math.round((Date.parse(`${lot.expiresOn}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);
}

/** A lot expiring within this many days is flagged on the Materials screen. */
export const LOT_EXPIRY_WARNING_DAYS = 30;

/** What a lot's label QR code holds: short enough for the app's QR options. */
export function lotQrPayload(lotNumber: string): string {
  return JSON.stringify({ lot: lotNumber });
}

/** The lot number a scanned label names: a lot label's payload, or the plain text of a supplier's code. */
export function lotNumberFromScan(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { lot?: unknown }).lot === 'string')
      return (parsed as { lot: string }).lot.trim() || null;
  } catch {
    // Not JSON: a plain lot number.
  }
  return trimmed.length <= LOT_NUMBER_MAX ? trimmed : null;
}
