import { isLeftoverTestDatabase, LEFTOVER_AGE_MS, testDatabaseName } from './support/database';

/** The sweep of global-setup must never drop the database of a run going on beside it. */
describe('which test databases the sweep may drop', () => {
  const now = Date.parse('2026-11-26T03:00:00Z');

  it('spares a database created within the leftover age, even with nobody connected', () => {
    expect(isLeftoverTestDatabase(testDatabaseName(now), now)).toBe(false);
    expect(isLeftoverTestDatabase(testDatabaseName(now - LEFTOVER_AGE_MS + 60_000), now)).toBe(false);
  });

  it('drops one older than that, and one named before names told their age', () => {
    expect(isLeftoverTestDatabase(testDatabaseName(now - LEFTOVER_AGE_MS - 60_000), now)).toBe(true);
    expect(isLeftoverTestDatabase('af_test_0123456789ab', now)).toBe(true);
  });

  it('touches nothing that is not a test database, and names fit PostgreSQL', () => {
    expect(isLeftoverTestDatabase('alignerflow', now)).toBe(false);
    expect(testDatabaseName(now)).toMatch(/^af_test_[0-9a-z]+_[0-9a-f]{12}$/);
    expect(testDatabaseName(now).length).toBeLessThanOrEqual(63);
  });
});
