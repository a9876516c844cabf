import type { DeskEvent } from '../../../shared/desk-api';

export type DeskEventListener = (event: DeskEvent) => void;

export interface EventHub {
  /** Sends an event to every current listener (IPC windows, SSE streams, tests). */
  emit(event: DeskEvent): void;
  /** Returns the function that removes the listener. */
  subscribe(listener: DeskEventListener): () => void;
  /** Number of listeners, for shutdown diagnostics and tests. */
  size(): number;
}

/** Creates the core's event fan-out. A throwing listener is reported and never stops the others. */
export function createEventHub(
  logError: (message: string, error: unknown) => void = console.error,
): EventHub {
  const listeners = new Set<DeskEventListener>();
  return {
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          logError(`A listener of ${event.type} events failed`, error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    size: () => listeners.size,
  };
}
