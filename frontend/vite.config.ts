import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Only the environment is read here; the config stays free of Node typings.
declare const process: { env: Record<string, string | undefined> };

/** BASE_PATH ('/', '/portal', 'portal/') normalised to '/portal/'. */
function basePath(value: string | undefined): string {
  const trimmed = (value ?? '/').trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

const domainEntry = decodeURIComponent(new URL('../libs/domain/src/index.ts', import.meta.url).pathname);

const base = basePath(process.env.BASE_PATH);

export default defineConfig({
  base,
  resolve: { alias: { '@alignerflow/domain': domainEntry } },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        name: 'AlignerFlow',
        short_name: 'AlignerFlow',
        description: 'Dental lab workflow portal for clear aligner cases',
        theme_color: '#0d6e8f',
        background_color: '#f5f7fa',
        display: 'standalone',
        start_url: base,
        scope: base,
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        // The 3D viewer (~1 MB) loads when someone opens a model, not with every install.
        globIgnores: ['**/StlViewer-*.js'],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
