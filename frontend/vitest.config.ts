import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const domainEntry = decodeURIComponent(new URL('../libs/domain/src/index.ts', import.meta.url).pathname);
const domainTesting = decodeURIComponent(
  new URL('../libs/domain/src/testing/index.ts', import.meta.url).pathname,
);
const pwaStub = decodeURIComponent(new URL('./src/test/pwaRegisterStub.ts', import.meta.url).pathname);

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Exact matches: the package's entry must not swallow its `/testing` entry.
    alias: [
      { find: /^@alignerflow\/domain$/, replacement: domainEntry },
      { find: /^@alignerflow\/domain\/testing$/, replacement: domainTesting },
      { find: /^virtual:pwa-register\/react$/, replacement: pwaStub },
    ],
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
