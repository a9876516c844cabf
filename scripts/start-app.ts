import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defaultDataDir, folderFlagSchema, parseFlags, portFlagSchema } from '../electron/cli/args';
import { startBrowserMode } from '../electron/cli/start-browser';
import { prepareStandaloneShelter } from '../electron/desk/api/handlers/shelter-host';
import { formatFingerprint, type LanSharing } from '../shared/desk-api';
import { ensureElectron } from './lib/electron-binary';
import { ensureNative } from './lib/native';
import { RENDERER_OUT, ROOT } from './lib/paths';
import { ensureRendererBuilt } from './lib/renderer-build';

export const DEFAULT_PORT = 5183;

const USAGE = `Usage: npm start -- [options]

Starts Shelter Desk: the desktop window when Electron's binary is installed (it is fetched once if
missing), otherwise browser mode, which serves the app on 127.0.0.1 and opens your browser.

Options:
  --data-dir DIR   where this desk keeps its data (default: ${defaultDataDir()})
  --port N         browser mode: port on 127.0.0.1, 0 for any free port (default: ${DEFAULT_PORT})
  --no-open        browser mode: do not open a browser, just print the address
  --browser        use browser mode even when Electron is available
  --electron       try to fetch Electron's binary again now, even after a recent failure
  --dev            desktop: run with the Vite dev server and live reload
  --standalone     run the shelter on this desk (skips the welcome screen); prints the shelter API's address
  --demo           with --standalone: start with the demo shelter (removable later under Shelter)
  --share-lan      with --standalone: share the shelter on the LAN (HTTPS); prints the address and a pairing
                   code for a second desk (SHELTER_DESK_LAN_HOST / SHELTER_DESK_LAN_PORT choose where)
  -h, --help       show this help

Environment: SHELTER_DESK_MODE=browser|electron has the effect of --browser / --electron.`;

const HINT = 'Run "npm start -- --help" to see the options.';

const flagOptions = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  'no-open': { type: 'boolean' },
  browser: { type: 'boolean' },
  electron: { type: 'boolean' },
  dev: { type: 'boolean' },
  standalone: { type: 'boolean' },
  demo: { type: 'boolean' },
  'share-lan': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const flagsSchema = z
  .object({
    'data-dir': folderFlagSchema.optional(),
    port: portFlagSchema.default(DEFAULT_PORT),
    'no-open': z.boolean().default(false),
    browser: z.boolean().default(false),
    electron: z.boolean().default(false),
    dev: z.boolean().default(false),
    standalone: z.boolean().default(false),
    demo: z.boolean().default(false),
    'share-lan': z.boolean().default(false),
    help: z.boolean().default(false),
  })
  .refine((flags) => !flags['share-lan'] || flags.standalone, {
    error: '--share-lan needs --standalone (npm start -- --standalone --share-lan)',
    path: ['share-lan'],
  })
  .refine((flags) => !flags.demo || flags.standalone, {
    error: '--demo needs --standalone (npm start -- --standalone --demo)',
    path: ['demo'],
  })
  .refine((flags) => !(flags.browser && flags.electron), {
    error: '--browser and --electron contradict each other; choose one',
    path: ['browser'],
  });

const envModeSchema = z.enum(['browser', 'electron']).optional();

function appVersion(): string {
  const pkg = z
    .object({ version: z.string() })
    .parse(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  return pkg.version;
}

/** Runs the desktop app through electron-vite and resolves with its exit code. */
function runDesktop(dataDir: string, dev: boolean): Promise<number> {
  ensureNative('electron');
  const cli = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const child = spawn(process.execPath, [cli, dev ? 'dev' : 'preview'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, SHELTER_DESK_DATA_DIR: dataDir },
  });
  // Ctrl+C reaches the whole process group; SIGTERM sent to us alone is passed on.
  const forward = () => child.kill('SIGTERM');
  process.on('SIGTERM', forward);
  process.on('SIGINT', () => {});
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      process.off('SIGTERM', forward);
      resolve(code ?? 0);
    });
  });
}

/** The lines `--share-lan` prints: the LAN address, the fingerprint and a pairing code (or why there are none). */
function describeSharing(sharing: LanSharing): string {
  if (!sharing.address || !sharing.code) {
    return `LAN sharing is on but not running: ${sharing.problem ?? 'see Keys and sharing.'}`;
  }
  return [
    `Shared on the LAN at ${sharing.address}`,
    `Certificate fingerprint: ${sharing.fingerprint ? formatFingerprint(sharing.fingerprint) : '?'}`,
    `Pairing code (works once, until ${sharing.expiresAt}): ${sharing.code}`,
    ...(sharing.typed ? [`Or type on the other desk: ${sharing.typed}`] : []),
  ].join('\n');
}

/**
 * `npm start`: parses flags, picks desktop or browser mode, and runs it. Resolves with an exit code
 * for the desktop (when the window closes); in browser mode it resolves once serving, and the process
 * keeps running until Ctrl+C / SIGTERM.
 */
export async function main(argv: readonly string[]): Promise<number | undefined> {
  const flags = parseFlags(argv, flagOptions, flagsSchema, HINT);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const envMode = envModeSchema.safeParse(process.env.SHELTER_DESK_MODE || undefined);
  if (!envMode.success) {
    console.error(
      `SHELTER_DESK_MODE must be "browser" or "electron", not "${process.env.SHELTER_DESK_MODE}".`,
    );
    return 2;
  }
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  if (flags.standalone) {
    prepareStandaloneShelter(dataDir, { demo: flags.demo, shareLan: flags['share-lan'] });
  }
  const wantBrowser = flags.browser || envMode.data === 'browser';
  const forceElectron = flags.electron || envMode.data === 'electron';

  let reason: string;
  if (wantBrowser) {
    reason = 'started with --browser.';
  } else {
    const electron = await ensureElectron({ force: forceElectron });
    if (electron.available) {
      if (flags['share-lan']) console.log('LAN sharing is on: the pairing code is under Keys and sharing.');
      return runDesktop(dataDir, flags.dev);
    }
    reason = `${electron.reason} Everything works the same in the browser tab.`;
  }

  ensureNative('node');
  ensureRendererBuilt();
  const running = await startBrowserMode({
    dataDir,
    port: flags.port,
    open: !flags['no-open'],
    reason,
    rendererDir: RENDERER_OUT,
    appVersion: appVersion(),
  });
  const shelter = await running.core.registry.invoke('shelter.overview');
  // Scripts and other tools read this line to reach the standalone shelter's API.
  if (shelter.apiUrl) console.log(`Shelter API at ${shelter.apiUrl}`);
  if (flags['share-lan']) {
    // Asked through the setting itself: it waits for a start still under way (the first start makes the shelter's
    // certificate), where reading the state at once could find the listener not open yet.
    const sharing = await running.core.registry.invoke('shelter.lan.set', { enabled: true });
    console.log(describeSharing(sharing));
  }
  return undefined;
}
