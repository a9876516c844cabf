import { spawn } from 'node:child_process';
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
   * Where the main thread's time went during the longest gap (Linux's scheduler statistics; null elsewhere): on a
   * CPU, waiting for one (a busy machine), and the rest blocked (a system call, a disk wait, a page fault), with
   * the page faults that had to read from the disk.
   */
  threadInMax: ThreadTimeSpent | null;
  /** The whole interval between the two ticks around the longest gap (the gap plus the timer's period). */
  gapInMax: number;
  longestBusy: number;
  /** The most time the main thread was on a CPU between two ticks, and when (seconds); null where unknown. */
  mostCpuBetweenTicks: { ms: number; at: number } | null;
  cpuSeconds: number;
}

/** The main thread's time so far (ms) and its page faults that read from the disk (Linux's /proc). */
export interface ThreadTimeSpent {
  cpuMs: number;
  waitingForCpuMs: number;
  majorFaults: number;
}

/** This process's main thread's time so far, null where /proc does not say. */
export function mainThreadTime(): ThreadTimeSpent | null {
  try {
    const task = `/proc/self/task/${process.pid}`;
    const [cpu, waiting] = fs.readFileSync(`${task}/schedstat`, 'utf8').split(' ');
    // After the command name in parentheses (which may hold spaces): state is field 3, majflt field 12.
    const stat = fs.readFileSync(`${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      cpuMs: Number(cpu) / 1e6,
      waitingForCpuMs: Number(waiting) / 1e6,
      majorFaults: Number(fields[9]),
    };
  } catch {
    return null;
  }
}

/** `later` minus `earlier`, null when either is unknown. */
export function threadTimeBetween(
  earlier: ThreadTimeSpent | null,
  later: ThreadTimeSpent | null,
): ThreadTimeSpent | null {
  if (!earlier || !later) return null;
  return {
    cpuMs: later.cpuMs - earlier.cpuMs,
    waitingForCpuMs: later.waitingForCpuMs - earlier.waitingForCpuMs,
    majorFaults: later.majorFaults - earlier.majorFaults,
  };
}

/** "on a CPU 12 ms, waiting for one 3 ms, blocked 40 ms (0 disk page faults)" for a gap of `gapMs`. */
export function describeThreadTime(spent: ThreadTimeSpent | null, gapMs: number): string {
  if (!spent) return 'thread times unknown';
  const blocked = Math.max(0, gapMs - spent.cpuMs - spent.waitingForCpuMs);
  return (
    `on a CPU ${Math.round(spent.cpuMs)} ms, waiting for one ${Math.round(spent.waitingForCpuMs)} ms, ` +
    `blocked ${Math.round(blocked)} ms (${spent.majorFaults} disk page faults)`
  );
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
  let longest = { stall: 0, gap: 0, busy: 0, thread: null as ThreadTimeSpent | null, at: 0 };
  let longestBusy = 0;
  let last = performance.now();
  let lastUse = performance.eventLoopUtilization();
  let lastThread = mainThreadTime();
  let mostCpu: { ms: number; at: number } | null = lastThread ? { ms: 0, at: 0 } : null;
  const timer = setInterval(() => {
    const now = performance.now();
    const use = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(use, lastUse).active;
    const thread = mainThreadTime();
    const spent = threadTimeBetween(lastThread, thread);
    const stall = Math.max(0, now - last - LOOP_TICK_MS);
    stalls.push(stall);
    if (stall > longest.stall) {
      longest = { stall, gap: now - last, busy, thread: spent, at: (now - started) / 1000 };
    }
    if (spent && spent.cpuMs > (mostCpu?.ms ?? 0)) mostCpu = { ms: spent.cpuMs, at: (now - started) / 1000 };
    longestBusy = Math.max(longestBusy, busy);
    last = now;
    lastUse = use;
    lastThread = thread;
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
      threadInMax: longest.thread,
      gapInMax: longest.gap,
      longestBusy,
      mostCpuBetweenTicks: mostCpu,
      cpuSeconds,
    };
  };
}

/** What the bridge poller saw: when it began (ms since the epoch), and each call's start (ms since then) and ms. */
export interface PolledCalls {
  began: number;
  calls: Array<[number, number]>;
}

/**
 * Calls a desk bridge at `port` every 16 ms from a child process (`bridge-poller.ts`), as a window does: only the
 * answering side runs on this process's event loop. `stop()` ends the polling and gives every call.
 */
export function pollBridge(port: number, secret = ''): { stop(): Promise<PolledCalls> } {
  const poller = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'cases', 'bridge-poller.ts'),
      JSON.stringify({ port, secret }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let polled = '';
  poller.stdout.on('data', (chunk: Buffer) => {
    polled += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => poller.on('exit', () => resolve()));
  return {
    async stop() {
      poller.stdin.end();
      await exited;
      return JSON.parse(polled) as PolledCalls;
    },
  };
}
