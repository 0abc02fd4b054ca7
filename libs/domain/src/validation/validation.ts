/** Limits the spec leaves open, chosen so that no field can carry a runaway payload. */
export const LIMITS = {
  name: 200,
  username: 64,
  password: 256,
  email: 254,
  notes: 10_000,
  noteText: 5_000,
  /** Notes one case holds at most, and their text in all (characters). */
  notesPerCase: 10_000,
  notesTextPerCase: 5_000_000,
  reason: 2_000,
  url: 2_048,
  maxPrice: 1_000_000,
  maxSheets: 200,
  maxFiles: 20,
} as const;

/** A decimal from a number or a numeric string; anything else (empty, 'abc', null) is absent. */
export function parseDecimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** An integer from a number or a numeric string; a non-integer or non-numeric value is absent. */
export function parseInteger(value: unknown): number | undefined {
  const parsed = typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof parsed === 'number' && Number.isInteger(parsed) ? parsed : undefined;
}

export function isHttpUrl(value: string): boolean {
  if (value.length > LIMITS.url) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A path on this server, such as an upload's url; never protocol-relative. */
export function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !/[\s\\]/.test(value);
}

/**
 * The url the spec's older backups give a file that was never stored. It leads nowhere (the app
 * shows such a file without a link), so a restore keeps it; no command writes it.
 */
export const PLACEHOLDER_FILE_URL = '#';

/** Where a case file may point: an http(s) URL or a file stored here (never javascript: or data:). */
export function isFileUrl(value: string): boolean {
  // The cheap test first: parsing a stored file's path as a URL throws, and a restore checks many.
  return isLocalPath(value) || isHttpUrl(value);
}

/** An optional link the browser opens or frames (simulation links): empty, or an http(s) URL. */
export function checkLink(label: string, value: unknown): { value: string } | { error: string } {
  const link = checkText(label, value, { max: LIMITS.url });
  if ('error' in link) return link;
  if (link.value && !isHttpUrl(link.value)) return { error: `${label} must be an http(s) URL.` };
  return link;
}

/** A calendar date 'YYYY-MM-DD' that exists. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(isoDate);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

// Control characters other than tab and newlines never belong in a form field.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// Half of a UTF-16 surrogate pair is no character at all: JSON and PostgreSQL cannot keep it.
const LONE_SURROGATE = /\p{Cs}/u;

/** Trimmed text or a message saying why it is not acceptable. */
export function checkText(
  label: string,
  value: unknown,
  { required = false, max = LIMITS.name }: { required?: boolean; max?: number } = {},
): { value: string } | { error: string } {
  if (value === undefined || value === null) {
    return required ? { error: `${label} is required.` } : { value: '' };
  }
  if (typeof value !== 'string') return { error: `${label} must be text.` };
  const trimmed = value.trim();
  if (required && trimmed === '') return { error: `${label} is required.` };
  if (trimmed.length > max) return { error: `${label} must be at most ${max} characters.` };
  if (CONTROL_CHARACTERS.test(trimmed) || LONE_SURROGATE.test(trimmed)) {
    return { error: `${label} contains invalid characters.` };
  }
  return { value: trimmed };
}

export function formatFileSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export function formatPrice(price: number | null | undefined): string {
  return price === null || price === undefined ? 'N/A' : `$${price.toFixed(2)}`;
}
