import type { DeskTransport } from './channels';
import { DeskCallError, type DeskError, type DeskResult } from './desk-call-error';
import type { DeskEvent } from './events';
import type { DeskApi, DeskOutput } from './index';

/** Reads one raw event: the event when this side knows it, else undefined (the event is skipped). */
export type DeskEventReader = (raw: unknown) => DeskEvent | undefined;

const isText = (value: unknown): value is string => typeof value === 'string';

function asDeskError(value: unknown): DeskError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { code, message, requestId, fieldErrors } = value as Record<string, unknown>;
  if (!isText(code) || !isText(message) || (requestId !== undefined && !isText(requestId))) return undefined;
  if (fieldErrors === undefined) return { code, message, ...(requestId !== undefined && { requestId }) };
  if (!Array.isArray(fieldErrors)) return undefined;
  const fields = fieldErrors.map((entry: unknown) => {
    const { field, message: said } = (entry ?? {}) as Record<string, unknown>;
    return isText(field) && isText(said) ? { field, message: said } : undefined;
  });
  if (fields.some((entry) => entry === undefined)) return undefined;
  return {
    code,
    message,
    ...(requestId !== undefined && { requestId }),
    fieldErrors: fields as NonNullable<DeskError['fieldErrors']>,
  };
}

/** A transport's reply as the envelope every transport returns, or undefined if it is not one. */
export function asDeskResult(raw: unknown): DeskResult | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const reply = raw as { ok?: unknown; value?: unknown; error?: unknown };
  if (reply.ok === true) return { ok: true, value: reply.value };
  const error = reply.ok === false ? asDeskError(reply.error) : undefined;
  return error ? { ok: false, error } : undefined;
}

/**
 * Builds the `DeskApi` over a raw transport (preload IPC or the browser shim). A reply that is not the result
 * envelope fails the call loudly; each event goes through the reader, which skips one it does not know. The reader
 * is loaded when the first listener subscribes (the renderer's holds the event schemas, which its first frame does
 * not need): events that come meanwhile wait for it, in order.
 */
export function createDeskClient(
  transport: DeskTransport,
  loadEventReader: () => Promise<DeskEventReader>,
): DeskApi {
  let reader: DeskEventReader | undefined;
  let loading: Promise<DeskEventReader> | undefined;
  const readerLoaded = () => {
    loading ??= loadEventReader().then(
      (loaded) => (reader = loaded),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    async call(method, ...args) {
      const result = asDeskResult(await transport.call(method, args[0]));
      if (!result) {
        throw new DeskCallError({
          code: 'transport_failed',
          message: `The desk sent an unreadable reply to ${method}.`,
        });
      }
      if (!result.ok) throw new DeskCallError(result.error);
      return result.value as DeskOutput<typeof method>;
    },
    subscribe(listener) {
      const deliver = (raw: unknown) => {
        const event = reader?.(raw);
        if (event) listener(event);
      };
      let waiting: unknown[] | undefined;
      let stopped = false;
      if (!reader) {
        const queue: unknown[] = [];
        waiting = queue;
        readerLoaded().then(
          () => {
            waiting = undefined;
            if (!stopped) for (const raw of queue) deliver(raw);
          },
          (error: unknown) =>
            console.error('The desk events could not be read: their checks did not load.', error),
        );
      }
      const stop = transport.subscribe((raw) => {
        if (waiting) waiting.push(raw);
        else deliver(raw);
      });
      return () => {
        stopped = true;
        stop();
      };
    },
  };
}
