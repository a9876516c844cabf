import fs from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * Three builds from three roots, all into out/:
 * - main (Node, ESM): two entries, the Electron shell (index.js) and the desk core's own process
 *   (desk-process.js, forked by the shell as a utility process); dependencies stay external
 *   (better-sqlite3 is native and is unpacked from the asar by electron-builder). The update feed
 *   is fixed at build time from SHELTER_DESK_UPDATE_URL (empty: the build never checks); the print fonts are
 *   copied to out/main/fonts;
 * - preload (sandboxed, so CommonJS and self-contained: a sandboxed preload cannot import modules);
 * - renderer (the React UI), also what the browser host of `npm start` serves.
 */
/** The print fonts (resources/fonts, with their licences) beside the core's bundle: out/main/fonts. */
const printFonts = {
  name: 'print-fonts',
  generateBundle(this: { emitFile(file: { type: 'asset'; fileName: string; source: Buffer }): string }) {
    const folder = resolve('resources/fonts');
    for (const file of fs.readdirSync(folder)) {
      this.emitFile({
        type: 'asset',
        fileName: `fonts/${file}`,
        source: fs.readFileSync(resolve(folder, file)),
      });
    }
  },
};

export default defineConfig({
  main: {
    plugins: [printFonts],
    define: {
      __SHELTER_DESK_UPDATE_URL__: JSON.stringify(process.env.SHELTER_DESK_UPDATE_URL ?? ''),
    },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('electron/main/index.ts'),
          'desk-process': resolve('electron/desk-process/index.ts'),
        },
      },
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
      rollupOptions: {
        input: resolve('renderer/index.html'),
        // Everything a new tab runs before its first frame in one chunk: a browser fetches, compiles and links each
        // module file on its own, and with seventy of them (the default split) a new tab spent about 200 ms more
        // before its first rows. The screens opened later stay in their own chunks.
        output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } },
      },
    },
  },
});
