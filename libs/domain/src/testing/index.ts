/**
 * `@alignerflow/domain/testing`: the one way a test anywhere (domain, API, app) gets a case —
 * from the events that made it. Mapped for tests only; no build includes it.
 */
export * from './case-fixtures.js';
