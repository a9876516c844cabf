import type { DeskInput, DeskMethodName, DeskOutput } from '../../../shared/desk-api';
import { desk } from './desk';

/**
 * Calls made before React has mounted (a new tab's first list page), kept for the first component that asks the
 * same question, so the desk answers while the page is still starting instead of after it.
 */
const early = new Map<string, Promise<unknown>>();

function keyOf(method: string, input: unknown): string {
  const fields =
    input && typeof input === 'object' ? Object.entries(input).sort(([a], [b]) => (a < b ? -1 : 1)) : input;
  return `${method} ${JSON.stringify(fields ?? null)}`;
}

export function callEarly<M extends DeskMethodName>(method: M, input: DeskInput<M>): void {
  const call = desk.call as (name: M, value: DeskInput<M>) => Promise<DeskOutput<M>>;
  const pending = call(method, input);
  // A failure is the asking component's to show; until one asks, it is not unhandled.
  pending.catch(() => undefined);
  early.set(keyOf(method, input), pending);
}

/** The answer of an early call with this method and input (any key order), once: later calls ask the desk. */
export function takeEarly<M extends DeskMethodName>(
  method: M,
  input: DeskInput<M>,
): Promise<DeskOutput<M>> | undefined {
  const key = keyOf(method, input);
  const pending = early.get(key) as Promise<DeskOutput<M>> | undefined;
  early.delete(key);
  return pending;
}
