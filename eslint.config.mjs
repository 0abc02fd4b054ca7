import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'frontend/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // Tests read JSON answers of many shapes.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.test.ts', '**/*.test.tsx', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The environment is read once, at start, by backend/src/config (and handed to each capability).
    files: ['backend/src/**/*.ts'],
    ignores: ['backend/src/config/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through backend/src/config.' },
      ],
    },
  },
  {
    // The domain's test fixtures build cases from events for tests; the app bundle never holds them.
    files: ['frontend/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'frontend/src/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@alignerflow/domain/testing',
              message: 'Test fixtures: import them from tests or src/test/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The domain is shared by server and browser: no framework, no I/O.
    files: ['libs/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@nestjs/*', 'typeorm', 'pg', 'react', 'node:*', 'fs', 'http'] },
      ],
    },
  },
);
