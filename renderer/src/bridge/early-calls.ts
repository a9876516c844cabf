import type { DeskInput, DeskMethodName, DeskOutput } from '../../../shared/desk-api';
import { desk } from './desk';

/**
 * Calls made before React has mounted (a new tab's first list page), kept for the first component that asks the
 * same question, so the desk answers while the page is still starting instead of after it.
 */
interface EarlyCall {
  pending: Promise<unknown>;
  /** Set once the desk has answered. */
  answer?: { value: unknown };
}
const early = new Map<string, EarlyCall>();

function keyOf(method: string, input: unknown): string {
  const fields =
    input && typeof input === 'object' ? Object.entries(input).sort(([a], [b]) => (a < b ? -1 : 1)) : input;
  return `${method} ${JSON.stringify(fields ?? null)}`;
}

export function callEarly<M extends DeskMethodName>(method: M, input: DeskInput<M>): void {
  const call = desk.call as (name: M, value: DeskInput<M>) => Promise<DeskOutput<M>>;
  const pending = call(method, input);
  const entry: EarlyCall = { pending };
  // A failure is the asking component's to show; until one asks, it is not unhandled.
  pending.then(
    (value) => {
      entry.answer = { value };
    },
    () => undefined,
  );
  early.set(keyOf(method, input), entry);
}

/** Resolves once every early call has been answered (or has failed), or after `ms`, whichever comes first. */
export function earlyCallsSettled(ms: number): Promise<void> {
  const calls = [...early.values()].map((entry) => entry.pending);
  if (calls.length === 0) return Promise.resolve();
  return Promise.race([
    Promise.allSettled(calls).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, ms)),
  ]);
}

/**
 * The answer of an early call with this method and input (any key order) if it has come, for a component's first
 * render. Read without taking it (a render must not change anything): the component takes it with `takeEarly` once
 * mounted. Undefined while the call is still on its way.
 */
export function peekEarlyAnswer<M extends DeskMethodName>(
  method: M,
  input: DeskInput<M>,
): DeskOutput<M> | undefined {
  return early.get(keyOf(method, input))?.answer?.value as DeskOutput<M> | undefined;
}

/** The answer of an early call with this method and input (any key order), once: later calls ask the desk. */
export function takeEarly<M extends DeskMethodName>(
  method: M,
  input: DeskInput<M>,
): Promise<DeskOutput<M>> | undefined {
  const key = keyOf(method, input);
  const pending = early.get(key)?.pending as Promise<DeskOutput<M>> | undefined;
  early.delete(key);
  return pending;
}
