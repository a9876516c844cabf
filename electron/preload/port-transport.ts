// Import-free apart from types and the import-free channel names: bundled into the sandboxed preload.
import type { DeskTransport } from '../../shared/desk-api/channels';

/** What the page side needs of a MessagePort (the DOM's; a stand-in in tests). */
export interface PagePort {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/** How long a call waits for the core to come up (a first start may migrate a large mirror). */
export const CONNECT_TIMEOUT_MS = 60_000;

interface Waiting {
  method: string;
  input: unknown;
  resolve(result: unknown): void;
}

function failure(message: string) {
  return { ok: false, error: { code: 'transport_failed', message } };
}

/**
 * `window.desk` on the desktop: calls go to the core's process over a MessagePort that main hands the page, and
 * are answered on it; core events come on it too, shell events (menu commands, the core's restarts) over IPC.
 * Calls made before a port arrives wait for it (bounded). When the core stops, calls in flight fail with a clear
 * message (they may or may not have been applied, as with any dropped connection) and later calls wait for the
 * restarted core's port.
 */
export function createPortTransport(options: { connectTimeoutMs?: number } = {}) {
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const listeners = new Set<(event: unknown) => void>();
  const inFlight = new Map<number, Waiting>();
  const queued = new Set<Waiting>();
  let port: PagePort | undefined;
  let down: string | undefined;
  let nextId = 1;

  function send(waiting: Waiting): void {
    if (!port) {
      queued.add(waiting);
      setTimeout(() => {
        if (queued.delete(waiting)) {
          waiting.resolve(
            failure(
              `Shelter Desk's data service did not start within ${Math.round(connectTimeoutMs / 1000)} s.`,
            ),
          );
        }
      }, connectTimeoutMs);
      return;
    }
    const id = nextId++;
    inFlight.set(id, waiting);
    try {
      port.postMessage({ id, method: waiting.method, input: waiting.input });
    } catch (error) {
      inFlight.delete(id);
      waiting.resolve(failure(`This call could not be sent: ${(error as Error).message}`));
    }
  }

  function failInFlight(message: string): void {
    for (const waiting of inFlight.values()) waiting.resolve(failure(message));
    inFlight.clear();
  }

  function attach(next: PagePort): void {
    if (port) {
      port.onmessage = null;
      port.close();
    }
    failInFlight(
      'Shelter Desk restarted its data service while this was running. Check the result, then try again.',
    );
    port = next;
    down = undefined;
    port.onmessage = ({ data }) => {
      if (typeof data !== 'object' || data === null) return;
      if ('event' in data) {
        for (const listener of [...listeners]) listener(data.event);
      } else if ('id' in data && typeof data.id === 'number' && 'result' in data) {
        const waiting = inFlight.get(data.id);
        inFlight.delete(data.id);
        waiting?.resolve(data.result);
      }
    };
    for (const waiting of [...queued]) {
      queued.delete(waiting);
      send(waiting);
    }
  }

  /** An event from main: passed to listeners; the core's process state also steers the calls. */
  function shellEvent(event: unknown): void {
    if (typeof event === 'object' && event !== null && 'type' in event && event.type === 'desk-process') {
      const state = 'state' in event ? event.state : undefined;
      const message = 'message' in event && typeof event.message === 'string' ? event.message : undefined;
      if (state === 'restarting' || state === 'failed') {
        if (port) {
          port.onmessage = null;
          port.close();
          port = undefined;
        }
        failInFlight(
          "Shelter Desk's data service stopped while this was running. Check the result, then try again.",
        );
      }
      if (state === 'failed') {
        down = message ?? "Shelter Desk's data service could not be started.";
        for (const waiting of [...queued]) {
          queued.delete(waiting);
          waiting.resolve(failure(down));
        }
      }
    }
    for (const listener of [...listeners]) listener(event);
  }

  const transport: DeskTransport = {
    call: (method, input) =>
      new Promise((resolve) => {
        if (down) resolve(failure(down));
        else send({ method: String(method), input, resolve });
      }),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return { transport, attach, shellEvent };
}
