import type { DeskProcessEvent } from '../../shared/desk-api';
import { type FromCore, fromCoreSchema, type PortLike, type ToCore } from '../desk-process/protocol';
import type { Logger } from '../platform/log';
import type { SecretStore } from '../platform/secret-store';

/** What main needs of the core's process (Electron's UtilityProcess; a stand-in in tests). */
export interface UtilityLike {
  readonly pid?: number | undefined;
  postMessage(message: unknown, transfer?: PortLike[]): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export type DeskProcessState = 'starting' | 'running' | 'restarting' | 'failed' | 'stopped';

export interface DeskProcessHostOptions {
  fork(): UtilityLike;
  /** A fresh MessageChannelMain. */
  createChannel(): { port1: PortLike; port2: PortLike };
  start: Omit<Extract<ToCore, { type: 'start' }>, 'type'>;
  /** Main's secret store (safeStorage): the core asks it for keys over the parent port. */
  secretStore: SecretStore;
  /** Tells every window about the core's process (restarting, running again, failed). */
  broadcast(event: DeskProcessEvent): void;
  /** Status, settings and error lines from the core (badge, theme, updater, diagnostics). */
  onMessage?(message: FromCore): void;
  log: Logger;
  /** Waits before each restart; the last repeats. Default 0.5 s, 2 s, 5 s. */
  restartDelaysMs?: number[];
  /** More stops than this within `restartWindowMs` and the host gives up (state failed). Default 5 in 5 min. */
  maxRestarts?: number;
  restartWindowMs?: number;
  now?: () => number;
}

export interface DeskProcessHost {
  state(): DeskProcessState;
  pid(): number | undefined;
  /**
   * A window asks for its port (on every page load): `deliver` gets one end of a fresh channel now if the core
   * runs, else once it does, and again after every restart. A later call with the same key replaces the earlier.
   */
  connect(key: number, deliver: (port: PortLike) => void): void;
  disconnect(key: number): void;
  /** Resolves once the core answered `ready` the first time (rejects if it failed to start). */
  ready: Promise<void>;
  /** Asks the core to close its databases and exit; kills it after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Runs the desk core in its own process and keeps it running: forks it, starts it, hands every window a port to
 * it, answers its secret requests, and restarts it (with growing delays) when it stops unexpectedly. Nothing is
 * lost by a restart: every queued change is in the outbox on disk, and the restarted core resumes it.
 */
export function createDeskProcessHost(options: DeskProcessHostOptions): DeskProcessHost {
  const now = options.now ?? Date.now;
  const delays = options.restartDelaysMs ?? [500, 2_000, 5_000];
  const maxRestarts = options.maxRestarts ?? 5;
  const windowMs = options.restartWindowMs ?? 5 * 60_000;
  const clients = new Map<number, (port: PortLike) => void>();
  const stops: number[] = [];
  let child: UtilityLike | undefined;
  let state: DeskProcessState = 'starting';
  let startFailure: string | undefined;
  let restarts = 0;
  let markReady: () => void = () => undefined;
  let markFailed: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => undefined);
  let stopped: (() => void) | undefined;

  function hand(deliver: (port: PortLike) => void): void {
    if (!child || state !== 'running') return;
    const { port1, port2 } = options.createChannel();
    child.postMessage({ type: 'connect' } satisfies ToCore, [port1]);
    deliver(port2);
  }

  async function answerSecret(message: Extract<FromCore, { type: 'secret' }>): Promise<void> {
    const reply = (ok: boolean, value: string | null, text: string | null) =>
      child?.postMessage({ type: 'secret-reply', id: message.id, ok, value, message: text } satisfies ToCore);
    try {
      if (message.op === 'get') reply(true, (await options.secretStore.get(message.name)) ?? null, null);
      else if (message.op === 'set') {
        await options.secretStore.set(message.name, message.value ?? '');
        reply(true, null, null);
      } else {
        await options.secretStore.delete(message.name);
        reply(true, null, null);
      }
    } catch (error) {
      reply(false, null, (error as Error).message);
    }
  }

  function onMessage(raw: unknown): void {
    const parsed = fromCoreSchema.safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'ready') {
      state = 'running';
      options.log.info('core ready', { pid: child?.pid, restarts });
      markReady();
      if (restarts > 0) {
        options.broadcast({
          type: 'desk-process',
          state: 'running',
          message:
            'Shelter Desk restarted its data service after an unexpected stop. Unsent changes were kept and will be sent.',
        });
      }
      for (const deliver of clients.values()) hand(deliver);
    } else if (message.type === 'failed') {
      // Restarting would fail the same way: end it, and the exit gives up with this reason.
      startFailure = message.message;
      child?.kill();
    } else if (message.type === 'secret') {
      void answerSecret(message);
    } else if (message.type === 'stopped') {
      stopped?.();
    }
    options.onMessage?.(message);
  }

  function giveUp(reason: string): void {
    state = 'failed';
    options.log.error('core not restarted', { reason });
    markFailed(new Error(reason));
    options.broadcast({ type: 'desk-process', state: 'failed', message: reason });
  }

  function onExit(code: number): void {
    child = undefined;
    if (state === 'stopped') {
      stopped?.();
      return;
    }
    if (startFailure) {
      giveUp(`Shelter Desk's data service could not start: ${startFailure}`);
      return;
    }
    const at = now();
    stops.push(at);
    while (stops.length > 0 && (stops[0] ?? at) < at - windowMs) stops.shift();
    options.log.error('core stopped unexpectedly', { code, stopsRecently: stops.length });
    if (stops.length > maxRestarts) {
      giveUp(
        `Shelter Desk's data service stopped ${stops.length} times in ${Math.round(windowMs / 60_000)} minutes and ` +
          'was not restarted again. Help → Open Logs Folder shows why; quit and reopen Shelter Desk to try again.',
      );
      return;
    }
    state = 'restarting';
    options.broadcast({
      type: 'desk-process',
      state: 'restarting',
      message:
        "Shelter Desk's data service stopped unexpectedly and is starting again. Unsent changes are safe on this computer.",
    });
    const delay = delays[Math.min(stops.length - 1, delays.length - 1)] ?? 1_000;
    setTimeout(() => {
      if (state !== 'restarting') return;
      restarts += 1;
      launch();
    }, delay).unref();
  }

  function launch(): void {
    const forked = options.fork();
    child = forked;
    forked.on('message', onMessage);
    forked.on('exit', (code) => {
      if (child === forked) onExit(code);
    });
    forked.postMessage({ type: 'start', ...options.start } satisfies ToCore);
  }

  launch();

  return {
    state: () => state,
    pid: () => child?.pid,
    ready,
    connect(key, deliver) {
      clients.set(key, deliver);
      hand(deliver);
    },
    disconnect(key) {
      clients.delete(key);
    },
    stop(timeoutMs = 10_000) {
      const running = child;
      state = 'stopped';
      if (!running) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          options.log.warn('core did not stop in time; killed', { timeoutMs });
          running.kill();
          resolve();
        }, timeoutMs);
        stopped = () => {
          clearTimeout(timer);
          resolve();
        };
        running.postMessage({ type: 'stop' } satisfies ToCore);
      });
    },
  };
}
