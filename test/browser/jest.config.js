/** Browser tests: the built app in Debian's Chromium against the real backend and database. */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.ts'],
  testTimeout: 90000,
};
