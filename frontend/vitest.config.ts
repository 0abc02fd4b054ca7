import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const domainEntry = decodeURIComponent(new URL('../libs/domain/src/index.ts', import.meta.url).pathname);
const pwaStub = decodeURIComponent(new URL('./src/test/pwaRegisterStub.ts', import.meta.url).pathname);

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@alignerflow/domain': domainEntry,
      'virtual:pwa-register/react': pwaStub,
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
