/** Domain, backend and cross-package tests; the frontend runs under vitest. */
const swcTs = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs/domain/src', '<rootDir>/backend/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcTs],
    '^.+\\.m?js$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@scure|@noble)/)',
  ],
  moduleNameMapper: {
    '^@alignerflow/domain$': '<rootDir>/libs/domain/src/index.ts',
    '^@alignerflow/domain/testing$': '<rootDir>/libs/domain/src/testing/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30000,
};
