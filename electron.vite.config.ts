import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * `electron-vite dev` only: the dev server injects an inline React refresh script that the strict
 * meta CSP of index.html blocks, and a meta tag cannot be relaxed by a header. In dev the meta is
 * dropped and the dev CSP header of src/main/electron/security.ts applies; builds keep the meta.
 */
const devDropsMetaCsp: Plugin = {
  name: 'angelia-dev-drops-meta-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''),
};

/**
 * Three builds: main (the Electron entry and the plain-Node CLI/host entry, which share the core),
 * preload (the contract bridge) and renderer (React). `npm ci` runs this through `prepare`, so the
 * CLI works right after install.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed renderer's preload must be CommonJS.
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), devDropsMetaCsp],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
