import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { CACHE_DIR, ROOT } from './paths';

const require = createRequire(path.join(ROOT, 'package.json'));
const MARKER = path.join(CACHE_DIR, 'electron-download.json');
/** After a failed download, `npm start` goes straight to browser mode for this long. */
const RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

const markerSchema = z.object({ version: z.string(), failedAt: z.number(), reason: z.string() });

export type ElectronAvailability = { available: true; binary: string } | { available: false; reason: string };

/** The `electron` package's version (present even without its binary). */
export function electronVersion(): string {
  return z.object({ version: z.string() }).parse(require('electron/package.json')).version;
}

/**
 * The binary's path when it is installed, found the way the `electron` package finds it (path.txt names the
 * executable inside dist/) but without `require('electron')`, which in the Electron 45 package starts a download of its
 * own, without a time limit, when the binary is missing.
 */
export function installedElectron(): string | undefined {
  const packageDir = path.dirname(require.resolve('electron/package.json'));
  let executable: string;
  try {
    executable = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    return undefined;
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, executable) : path.join(packageDir, 'dist', executable);
  return executable && fs.existsSync(binary) ? binary : undefined;
}

function readMarker(): z.infer<typeof markerSchema> | undefined {
  try {
    const marker = markerSchema.parse(JSON.parse(fs.readFileSync(MARKER, 'utf8')));
    return marker.version === electronVersion() ? marker : undefined;
  } catch {
    return undefined;
  }
}

function writeMarker(reason: string): void {
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(MARKER, JSON.stringify({ version: electronVersion(), failedAt: Date.now(), reason }));
  } catch {
    // Without a writable cache the next start simply tries the download again.
  }
}

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'moments ago';
  if (minutes < 120) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

/**
 * Why a download failed, to follow "its download failed": in words for whoever reads it in Settings when it is a
 * network error (no route, no name lookup, refused, timed out), with the error itself in brackets.
 */
export function failedBecause(reason: string): string {
  const network =
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up/i;
  return network.test(reason)
    ? `, as this computer could not reach the download site (${reason})`
    : ` (${reason})`;
}

/** Why Electron cannot be used, worded for whoever reads it first: the person at the desk, not only its IT person. */
function notInstalled(why: string, retryHint: string): string {
  return `the desktop window (Electron) is not installed on this computer: ${why}; ${retryHint}.`;
}

/** Runs electron's own install script (the one `allowScripts` keeps out of `npm install`). */
function download(): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'electron', 'install.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill();
      resolve({ ok: false, reason: `no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s` });
    }, DOWNLOAD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: error.message });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else {
        const firstLine = stderr
          .split('\n')
          .find((line) => line.trim())
          ?.trim();
        resolve({ ok: false, reason: firstLine ?? `install script exited with ${code}` });
      }
    });
  });
}

/**
 * Finds Electron's binary, fetching it once when it is missing. A failed fetch is remembered for a
 * day (per Electron version) so every start does not wait on the network; `force` retries anyway.
 */
export async function ensureElectron(options: {
  force: boolean;
  /** How to force a retry, named in the reason. */
  retryHint?: string;
}): Promise<ElectronAvailability> {
  const retryHint = options.retryHint ?? '"npm start -- --electron" tries the download again';
  const binary = installedElectron();
  if (binary) return { available: true, binary };

  const marker = readMarker();
  if (marker && !options.force && Date.now() - marker.failedAt < RETRY_AFTER_MS) {
    return {
      available: false,
      reason: notInstalled(
        `its download failed ${ago(Date.now() - marker.failedAt)}${failedBecause(marker.reason)}`,
        retryHint,
      ),
    };
  }

  console.error(
    `Fetching Electron ${electronVersion()}'s binary (once; up to ${DOWNLOAD_TIMEOUT_MS / 1000} s)…`,
  );
  const result = await download();
  const installed = installedElectron();
  if (result.ok && installed) {
    fs.rmSync(MARKER, { force: true });
    return { available: true, binary: installed };
  }
  const reason = result.ok ? 'the install script finished but no binary was found' : result.reason;
  writeMarker(reason);
  return { available: false, reason: notInstalled(`its download failed${failedBecause(reason)}`, retryHint) };
}
