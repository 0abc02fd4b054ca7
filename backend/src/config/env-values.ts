/** Which work a process does: everything, the HTTP API only, or the notification workers only. */
export type ProcessRole = 'all' | 'api' | 'worker';

/** A wrong value of an environment variable: the start stops with this message. */
export class ConfigError extends Error {}

/** Stops the start naming the variable and what is wrong with its value. */
export type Fail = (name: string, why: string) => never;

export const fail: Fail = (name, why) => {
  throw new ConfigError(`Invalid configuration: ${name} ${why}`);
};

export function checkedUrl(name: string, value: string | undefined, fallback: string, fail: Fail) {
  const url = value?.trim() || fallback;
  if (!/^https?:\/\/[^\s]+$/.test(url)) fail(name, `must be an http(s) URL, got "${value}"`);
  return url.replace(/\/$/, '');
}

export function milliseconds(name: string, value: string | undefined, fallback: number, fail: Fail): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) fail(name, `must be a whole number of milliseconds, got "${raw}"`);
  return ms;
}

export function flag(name: string, value: string | undefined, fail: Fail): boolean {
  const raw = value?.trim();
  if (!raw) return false;
  if (raw !== '0' && raw !== '1') fail(name, `must be 0 or 1, got "${raw}"`);
  return raw === '1';
}

export function wholeNumber(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  fail: Fail,
): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const number = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(number) || number < min)
    fail(name, `must be a whole number of at least ${min}, got "${raw}"`);
  return number;
}

/** A whole number from `min` to `max`; `fallback` when unset. */
export function integerInRange(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
  fail: Fail,
): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const number = Number(raw);
  if (!Number.isInteger(number) || number < min || number > max)
    fail(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return number;
}
