import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * Three builds from three roots, all into out/:
 * - main (Node, ESM): the Electron shell plus the core it bundles; dependencies stay external
 *   (better-sqlite3 is native and is unpacked from the asar by electron-builder);
 * - preload (sandboxed, so CommonJS and self-contained: a sandboxed preload cannot import modules);
 * - renderer (the React UI), also what the browser host of `npm start` serves.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves bundles unminified by default; the UI is also served over HTTP in browser mode.
      minify: true,
      // One bundle loaded from disk or loopback: no network cost to split it for.
      chunkSizeWarningLimit: 1024,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
