/**
 * Money in integer minor units (cents) end to end: a decimal amount is converted once, from its
 * shortest decimal text (so 1100.5 is 110050 and 1.005 is 101, never 100 through binary floats),
 * and tax is rounded once per line, half-up to the cent.
 */

/** A major-unit amount (a case's price, a tax rate in percent) times 100, rounded half-up. */
export function toMinorUnits(major: number): number {
  if (!Number.isFinite(major)) throw new RangeError(`Not an amount: ${major}`);
  const sign = major < 0 ? -1 : 1;
  const text = Math.abs(major).toString();
  if (/e/i.test(text)) return sign * Math.round(Math.abs(major) * 100);
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  const roundsUp = fraction.length > 2 && fraction[2] >= '5' ? 1 : 0;
  const minor = sign * (cents + roundsUp);
  return minor === 0 ? 0 : minor;
}

/** Tax on a line's amount at a rate in percent (at most 2 decimals): half-up to the cent. */
export function taxOf(amount: number, ratePercent: number): number {
  const basisPoints = toMinorUnits(ratePercent);
  const exact = amount * basisPoints;
  // Half-up on the magnitude, so a negative amount mirrors a positive one.
  const magnitude = Math.floor((Math.abs(exact) + 5000) / 10000);
  return exact < 0 ? -magnitude : magnitude;
}

/** A minor-unit amount as major units with 2 decimals ("1100.50"), for CSV files. */
export function toMajorText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const magnitude = Math.abs(minor);
  return `${sign}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

const FORMATS = new Map<string, Intl.NumberFormat>();

/** A minor-unit amount shown in its currency ("$1,100.50"). */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}|${currency}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    FORMATS.set(key, format);
  }
  return format.format(minor / 100);
}

/** A tax rate given by a user: a percentage 0–100 with at most 2 decimals. */
export function isTaxRate(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= 100 &&
    /^\d+(\.\d{1,2})?$/.test(String(value))
  );
}
