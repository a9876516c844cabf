import path from 'node:path';
import { type RunningApiServer, startApiServer } from '../../electron/server';

export const BENCH_WRITE_KEY = 'bench-write-key-0123456789abcdef';
export const BENCH_READ_KEY = 'bench-read-key-0123456789abcdef';

/** Where the bench keeps its demo database between runs. */
export function benchDataDir(pets = 100_000): string {
  return path.resolve(import.meta.dirname, `../../bench-results/data-${pets / 1000}k`);
}

let shelter: Promise<{ server: RunningApiServer; loadSeconds: number }> | undefined;

/**
 * The 100k-pet demo shelter, started once per bench run and shared by the cases. The database is kept in
 * bench-results/data-100k between runs (the demo only loads into an empty database).
 */
export function benchShelter(pets = 100_000): Promise<{ server: RunningApiServer; loadSeconds: number }> {
  shelter ??= (async () => {
    const started = performance.now();
    const server = await startApiServer({
      dataDir: benchDataDir(pets),
      demo: true,
      demoPets: pets,
      writeKey: BENCH_WRITE_KEY,
      readKey: BENCH_READ_KEY,
      rateLimitPerHour: 1_000_000_000,
    });
    return { server, loadSeconds: (performance.now() - started) / 1000 };
  })();
  return shelter;
}

/** Stops the shared shelter if a case started it. */
export async function closeBenchShelter(): Promise<void> {
  if (!shelter) return;
  const { server } = await shelter;
  await server.close();
  shelter = undefined;
}
