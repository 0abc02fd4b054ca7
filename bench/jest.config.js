/** `npm run bench`: benchmarks that print figures. Never part of `npm test` (not in its roots). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest reads this file as CommonJS
const base = require('../jest.config.js');

module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/bench'],
  testMatch: ['**/*.bench.ts'],
  testTimeout: 600000,
  globalSetup: '<rootDir>/bench/bench-setup.ts',
  globalTeardown: '<rootDir>/bench/bench-teardown.ts',
};
