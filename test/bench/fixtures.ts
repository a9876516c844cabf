import fs from 'node:fs';
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

/** The period of `watchEventLoop`'s timer: a frame. */
export const LOOP_TICK_MS = 16;

/** What `watchEventLoop` saw: gaps beyond the timer's period (ms), and this process's CPU meanwhile. */
export interface EventLoopWatch {
  ticks: number;
  p95: number;
  p99: number;
  max: number;
  /** When the longest gap ended, in seconds from the start of the watch. */
  maxAtSeconds: number;
  /** How long the loop ran this process's code during the longest gap. */
  busyInMax: number;
  /**
   * How long the main thread was on a CPU during the longest gap (Linux's scheduler statistics; null elsewhere):
   * busy with little CPU is the loop blocked in a system call (a disk wait), not running code.
   */
  cpuInMax: number | null;
  longestBusy: number;
  cpuSeconds: number;
}

/** This process's main thread's time on a CPU so far (Linux's scheduler statistics), null where unknown. */
export function mainThreadCpuMs(): number | null {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

/**
 * Gaps of a 16 ms timer in this process beyond its period: what a window's menus and IPC would wait. With each gap,
 * how long the loop was busy running this process's code in it (event-loop utilization): a gap with little busy
 * time is the machine giving this process no CPU, not code that blocks.
 */
export function watchEventLoop(): () => EventLoopWatch {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stalls: number[] = [];
  let longest = { stall: 0, busy: 0, cpu: null as number | null, at: 0 };
  let longestBusy = 0;
  let last = performance.now();
  let lastUse = performance.eventLoopUtilization();
  let lastCpu = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const use = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(use, lastUse).active;
    const threadCpu = mainThreadCpuMs();
    const stall = Math.max(0, now - last - LOOP_TICK_MS);
    stalls.push(stall);
    if (stall > longest.stall) {
      const cpuMs = threadCpu !== null && lastCpu !== null ? threadCpu - lastCpu : null;
      longest = { stall, busy, cpu: cpuMs, at: (now - started) / 1000 };
    }
    longestBusy = Math.max(longestBusy, busy);
    last = now;
    lastUse = use;
    lastCpu = threadCpu;
  }, LOOP_TICK_MS);
  return () => {
    clearInterval(timer);
    const sorted = [...stalls].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const used = process.cpuUsage(cpu);
    // CPU this process used meanwhile: a busy machine delays timers without any code blocking the loop.
    const cpuSeconds = (used.user + used.system) / 1e6;
    return {
      ticks: sorted.length,
      p95: at(0.95),
      p99: at(0.99),
      max: longest.stall,
      maxAtSeconds: longest.at,
      busyInMax: longest.busy,
      cpuInMax: longest.cpu,
      longestBusy,
      cpuSeconds,
    };
  };
}
