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
      // The runtime dependencies are bundled into out/main instead of being loaded from node_modules at
      // run time: resolving and loading some 300 separate modules (and lexing the CommonJS ones) was most
      // of `angelia <command>`'s start-up (docs/benchmarks.md, turn overhead and host ready).
      // @openai/codex stays external: it is never imported, only resolved to find the codex binary.
      externalizeDeps: {
        exclude: [
          '@decimalturn/toml-patch',
          'chokidar',
          'mdast-util-from-markdown',
          'mdast-util-to-string',
          'smol-toml',
          'vscode-jsonrpc',
          'write-file-atomic',
          'ws',
          'zod',
        ],
      },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
        },
        // Comments (not licence ones) and whitespace out, names kept (stack traces stay readable): Node parses ~40 % fewer
        // bytes at every `angelia` start — loading `run`'s module graph took 287 → 257 ms here, and on
        // 2 cores that load slows the early-started Codex's own start (docs/benchmarks.md).
        output: { minify: { mangle: false, compress: false, codegen: { removeWhitespace: true, legalComments: 'eof' } } },
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
