import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * better-sqlite3's entry, resolved from here (inside the app's asar once packaged): what a worker loads. Resolved on
 * first use, not when the module loads: the command line's startup snapshot is built before it knows where it runs.
 */
let driverPath: string | undefined;
const defaultDriverPath = () => (driverPath ??= createRequire(import.meta.url).resolve('better-sqlite3'));

/**
 * Starts a worker thread that runs `source`: plain CommonJS in a string, so it runs the same under tsx, vitest and
 * the bundled app without a module path to find. It finds the driver's path in `workerData.driver` (`driver`
 * overrides it, for tests) beside the caller's `data`. Throws when no worker thread can start.
 */
export function startDriverWorker(
  source: string,
  data: Record<string, unknown>,
  driver: string = defaultDriverPath(),
): Worker {
  return new Worker(source, { eval: true, workerData: { ...data, driver } });
}
