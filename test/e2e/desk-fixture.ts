import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { type DemoServer, startDemoServer } from './demo-server';

export interface RunningDesk {
  url: string;
  dataDir: string;
  /** Everything the process printed so far. */
  stdout(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Starts browser mode the way a person does (`node scripts/start.mjs --no-open --port 0 --data-dir
 * DIR`), with a fresh data folder, and reads the address from the printed line.
 */
export async function startDesk(
  dataDir: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<RunningDesk> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['scripts/start.mjs', '--no-open', '--port', '0', '--data-dir', dataDir, ...extraArgs],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A standalone desk's LAN sharing is bound to loopback on a free port: tests never open the real network.
      env: {
        ...process.env,
        SHELTER_DESK_MODE: '',
        SHELTER_DESK_LAN_HOST: '127.0.0.1',
        SHELTER_DESK_LAN_PORT: '0',
        ...env,
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No URL within 90 s.\n${stdout}\n${stderr}`)), 90_000);
    const check = () => {
      const match = /^Shelter Desk is running at (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`start.mjs exited with ${code} before serving.\n${stdout}\n${stderr}`));
    });
  });

  return {
    url,
    dataDir,
    stdout: () => stdout,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export const test = base.extend<{
  dataDir: string;
  desk: RunningDesk;
  demoDesk: RunningDesk;
  server: DemoServer;
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  dataDir: async ({}, use) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-'));
    await use(path.join(dir, 'data'));
    fs.rmSync(dir, { recursive: true, force: true });
  },
  desk: async ({ dataDir }, use) => {
    const desk = await startDesk(dataDir);
    await use(desk);
    await desk.stop();
  },
  /** A standalone desk running the demo shelter (`npm start -- --standalone --demo`), stopped after the test. */
  demoDesk: async ({ dataDir }, use) => {
    const desk = await startDesk(dataDir, ['--standalone', '--demo']);
    await use(desk);
    await desk.stop();
  },
  /** The demo shelter's API server (`startDemoServer`), with a data folder of its own, stopped after the test. */
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  server: async ({}, use) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-server-'));
    const server = await startDemoServer(dir);
    await use(server);
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
