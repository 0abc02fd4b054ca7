import fc from 'fast-check';
import { CASE_ID_PATTERN, caseIdSuffixRange, formatCaseId, isCaseId, pickCaseIdSuffix } from './case-id.js';

describe('case id format CA-{year}-{suffix}', () => {
  it.each<[string, boolean]>([
    ['CA-2025-100', true],
    ['CA-2025-999', true],
    ['CA-2024-077', true], // sample data keeps its zero-padded ids
    ['CA-2025-1000', true],
    ['CA-2025-99999', true],
    ['CA-2025-99', false],
    ['CA-2025-100000', false],
    ['CA-25-123', false],
    ['ca-2025-123', false],
    ['CB-2025-123', false],
    ['CA-2025-12a', false],
    [' CA-2025-123', false],
    ['CA-2025-123 ', false],
    ['', false],
  ])('isCaseId(%j) → %s', (value, expected) => {
    expect(isCaseId(value)).toBe(expected);
    expect(CASE_ID_PATTERN.test(value)).toBe(expected);
  });

  it.each<[number, number, string]>([
    [2025, 100, 'CA-2025-100'],
    [2025, 999, 'CA-2025-999'],
    [2026, 1000, 'CA-2026-1000'],
    [2026, 54321, 'CA-2026-54321'],
  ])('formatCaseId(%i, %i) → %s', (year, suffix, id) => {
    expect(formatCaseId(year, suffix)).toBe(id);
    expect(isCaseId(id)).toBe(true);
  });
});

describe('suffix range widens once a year is full (product decisions)', () => {
  it.each<[number, number, number]>([
    [0, 100, 999],
    [1, 100, 999],
    [899, 100, 999],
    [900, 1000, 9999], // all 900 three-digit ids taken → four digits
    [5000, 1000, 9999],
    [9899, 1000, 9999],
    [9900, 10000, 99999], // 900 + 9000 taken → five digits
    [50000, 10000, 99999],
  ])('with %i ids taken this year the suffix is %i..%i', (taken, min, max) => {
    expect(caseIdSuffixRange(taken)).toEqual({ min, max });
  });

  it('gives ids of the documented width in every range', () => {
    for (const taken of [0, 900, 9900]) {
      const { min, max } = caseIdSuffixRange(taken);
      expect(isCaseId(formatCaseId(2025, min))).toBe(true);
      expect(isCaseId(formatCaseId(2025, max))).toBe(true);
    }
  });
});

describe('pickCaseIdSuffix', () => {
  const range = { min: 100, max: 999 };

  it.each<[number, number]>([
    [0, 100],
    [0.5, 550],
    [0.999999, 999],
  ])('maps random %d to suffix %i when nothing is taken', (random, suffix) => {
    expect(pickCaseIdSuffix(range, new Set(), () => random)).toBe(suffix);
  });

  it('uses Math.random by default and stays in range', () => {
    for (let i = 0; i < 50; i++) {
      const suffix = pickCaseIdSuffix(range, new Set())!;
      expect(suffix).toBeGreaterThanOrEqual(100);
      expect(suffix).toBeLessThanOrEqual(999);
    }
  });

  it('returns undefined when the whole range is taken', () => {
    const all = new Set(Array.from({ length: 900 }, (_, index) => 100 + index));
    expect(pickCaseIdSuffix(range, all, () => 0.3)).toBeUndefined();
  });

  it('finds the last free suffix even when random keeps hitting taken ones', () => {
    const taken = new Set(Array.from({ length: 900 }, (_, index) => 100 + index).filter((n) => n !== 777));
    expect(pickCaseIdSuffix(range, taken, () => 0)).toBe(777);
  });

  it('never returns a taken suffix and returns undefined only when the range is full (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 80 })),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1 }),
        (min, width, takenOffsets, randoms) => {
          const pickRange = { min, max: min + width };
          const taken = new Set(takenOffsets.map((offset) => min + offset));
          let call = 0;
          const random = () => randoms[call++ % randoms.length];
          const suffix = pickCaseIdSuffix(pickRange, taken, random);
          const full = Array.from({ length: width + 1 }, (_, index) => min + index).every((n) =>
            taken.has(n),
          );
          if (full) {
            expect(suffix).toBeUndefined();
          } else {
            expect(suffix).toBeDefined();
            expect(taken.has(suffix!)).toBe(false);
            expect(suffix!).toBeGreaterThanOrEqual(pickRange.min);
            expect(suffix!).toBeLessThanOrEqual(pickRange.max);
            expect(Number.isInteger(suffix)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
