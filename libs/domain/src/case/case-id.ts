export const CASE_ID_PATTERN = /^CA-\d{4}-\d{3,5}$/;

export function isCaseId(value: string): boolean {
  return CASE_ID_PATTERN.test(value);
}

/**
 * The suffix range for the next id of a year: 100–999 while any is free, then 1000–9999, then
 * 10000–99999, so a busy lab is never stopped (product decisions).
 */
export function caseIdSuffixRange(takenThisYear: number): { min: number; max: number } {
  if (takenThisYear < 900) return { min: 100, max: 999 };
  if (takenThisYear < 900 + 9000) return { min: 1000, max: 9999 };
  return { min: 10000, max: 99999 };
}

export function formatCaseId(year: number, suffix: number): string {
  return `CA-${year}-${suffix}`;
}

/** Picks a random suffix not in `taken`, or undefined when the range is full. */
export function pickCaseIdSuffix(
  range: { min: number; max: number },
  taken: ReadonlySet<number>,
  random: () => number = Math.random,
): number | undefined {
  const size = range.max - range.min + 1;
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = range.min + Math.floor(random() * size);
    if (!taken.has(candidate)) return candidate;
  }
  const free: number[] = [];
  for (let suffix = range.min; suffix <= range.max; suffix++) if (!taken.has(suffix)) free.push(suffix);
  return free.length ? free[Math.floor(random() * free.length)] : undefined;
}
