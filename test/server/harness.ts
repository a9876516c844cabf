import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { ServerContext } from '../../electron/server/server-context';

export const WRITE_KEY = 'test-write-key-0123456789abcdef';
export const READ_KEY = 'test-read-key-0123456789abcdef';

export interface ServeProcess {
  apiUrl: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function childrenOf(pid: number): number[] {
  const result = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return result.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);
}

/** The node process that runs the server: the deepest descendant of npm started from the command line's snapshot. */
function serverPid(npmPid: number): number {
  let found = npmPid;
  const queue = [npmPid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of childrenOf(pid)) {
      let commandLine = '';
      try {
        commandLine = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (commandLine.includes('cli.blob')) found = child;
      queue.push(child);
    }
  }
  return found;
}

const madeFolders: string[] = [];
// Registered on the file that imports this module (each test file loads its own copy).
afterAll(removeMadeFolders);

/** A fresh temporary data folder, removed after the test file's last test. */
export function tempDataDir(prefix = 'shelter-serve-'): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeFolders.push(folder);
  return folder;
}

function removeMadeFolders(): void {
  for (const folder of madeFolders.splice(0))
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 2 });
}

/**
 * Starts `npm run --silent serve -- --port 0 ...` as a user would and waits for the printed URL.
 * Keys are provisioned through the environment unless `env` overrides them.
 */
export async function startServe(
  options: { args?: string[]; env?: Record<string, string | undefined>; dataDir?: string } = {},
): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? tempDataDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHELTER_DESK_WRITE_KEY: WRITE_KEY,
    SHELTER_DESK_READ_KEY: READ_KEY,
    SHELTER_DESK_RATE_LIMIT: undefined,
    ...options.env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const child = spawn(
    'npm',
    ['run', '--silent', 'serve', '--', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])],
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 90_000);
    const check = () => {
      const match = output.match(/Shelter Desk API listening on (https?:\/\/\S+\/api)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    apiUrl,
    dataDir,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      // Signal the server process itself (npm -> sh -> tsx -> node); npm then exits with its exit code.
      process.kill(serverPid(child.pid as number), signal);
      const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  json: any;
}

/** One HTTP request to the API (real fetch); the body is sent as JSON unless `raw` is given. */
export async function call(
  apiUrl: string,
  pathAndQuery: string,
  options: {
    method?: string;
    key?: string | null;
    body?: unknown;
    raw?: string | Buffer;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? WRITE_KEY : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A valid pet create body. */
export function newPet(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Test Pup',
    species: 'dog',
    age_category: 'young',
    sex: 'female',
    size: 'medium',
    status: 'available',
    health: 'good',
    ...overrides,
  };
}

/** Adds `count` dogs ("Dog 0", "Dog 1", ...) and `people` adopters ("Person 0", ...) in one transaction. */
export function addShelter(
  app: ServerContext,
  { dogs = 0, people = 0 }: { dogs?: number; people?: number },
): void {
  app.sqlite.transaction(() => {
    for (let i = 0; i < dogs; i++) app.pets.create(newPet({ name: `Dog ${i}` }) as never);
    for (let i = 0; i < people; i++) app.people.create({ type: 'adopter', name: `Person ${i}` } as never);
  })();
}

/** The global adoption fees in the stored pet responses, each once: one value once a fee change reached every pet. */
export function storedFees(app: ServerContext): unknown[] {
  return app.sqlite
    .prepare("SELECT DISTINCT json_extract(body, '$.global_adoption_fee') FROM pet_bodies")
    .pluck()
    .all();
}
