import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface DemoServer {
  /** Base address without /api, as a person types it into Settings. */
  base: string;
  key: string;
  /** A key that can only read. */
  readKey: string;
  /** The server's data folder (its `server.sqlite`), for checks of what it stored. */
  dataDir: string;
  /** GET/POST against the server's API with the write key (for checking what reached the server). */
  api<T = unknown>(pathAndQuery: string): Promise<T>;
  stop(): Promise<void>;
  /** Starts the stopped server again with its data, at the same address (where the desk expects it). */
  restart(): Promise<void>;
}

const KEY = 'e2e-write-key-0123456789abcdef';
const READ_KEY = 'e2e-read-key-0123456789abcdef';

interface ServerProcess {
  base: string;
  stop(): Promise<void>;
}

/** The embedded API server with the demo shelter (`npm run serve -- --demo`) on 127.0.0.1, a free port at first. */
export async function startDemoServer(dataDir: string): Promise<DemoServer> {
  let running = await spawnServer(dataDir, 0);
  const base = running.base;
  return {
    base,
    key: KEY,
    readKey: READ_KEY,
    dataDir,
    async api<T>(pathAndQuery: string) {
      const response = await fetch(`${base}/api${pathAndQuery}`, { headers: { 'x-api-key': KEY } });
      if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    stop: () => running.stop(),
    async restart() {
      await running.stop();
      running = await spawnServer(dataDir, Number(new URL(base).port));
    },
  };
}

async function spawnServer(dataDir: string, port: number): Promise<ServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['scripts/shelter-desk.mjs', 'serve', '--demo', '--port', String(port), '--data-dir', dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SHELTER_DESK_WRITE_KEY: KEY,
        SHELTER_DESK_READ_KEY: READ_KEY,
        SHELTER_DESK_RATE_LIMIT: '100000',
      },
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Demo server did not start.\n${output}`)), 60_000);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`Demo server exited.\n${output}`));
    });
  });
  return {
    base,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
