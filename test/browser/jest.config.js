/** Browser tests: the built app in Debian's Chromium against the real backend and database. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest reads this file as CommonJS
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.ts'],
  testTimeout: 90000,
};
