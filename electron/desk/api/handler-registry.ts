import { z } from 'zod';
import { describeFieldErrors, toFieldErrors } from '../../../shared/contract';
import {
  DeskCallError,
  type DeskError,
  type DeskInput,
  type DeskMethodName,
  type DeskOutput,
  type DeskParsedInput,
  type DeskResult,
  deskMethods,
  isDeskMethodName,
} from '../../../shared/desk-api';

/** A handler receives the validated input; what it throws becomes a `DeskError`. */
export type DeskHandler<M extends DeskMethodName> = (
  input: DeskParsedInput<M>,
) => DeskOutput<M> | Promise<DeskOutput<M>>;

/** Where features register their handlers: the core's registry, or a connection session's table. */
export interface HandlerTable {
  /** Registers the handler of one method. A second handler for the same name throws. */
  handle<M extends DeskMethodName>(name: M, handler: DeskHandler<M>): void;
}

export interface HandlerRegistry extends HandlerTable {
  /**
   * Runs a call from a transport (untrusted name and input): validates the input with the method's
   * schema, runs the handler, validates its output, and returns a result envelope. Never throws.
   */
  call(name: string, input: unknown): Promise<DeskResult>;
  /** Typed call for in-process callers (tests, CLI): resolves the output or throws `DeskCallError`. */
  invoke<M extends DeskMethodName>(name: M, input?: DeskInput<M>): Promise<DeskOutput<M>>;
  /** Methods declared in `deskMethods` that have no handler yet. */
  missing(): DeskMethodName[];
}

export interface HandlerRegistryOptions {
  /** Where unexpected handler failures are reported (with stack). Default: console.error. */
  logError?: (message: string, error: unknown) => void;
  /** Told the name of every call from a transport (a window), before it runs; not of `invoke`'s. */
  onTransportCall?: (name: string) => void;
}

/** Something that knows its own bridge shape, e.g. an API client error carrying the server's request id. */
interface ConvertibleToDeskError {
  toDeskError(): DeskError;
}

function isConvertible(error: unknown): error is ConvertibleToDeskError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<ConvertibleToDeskError>).toDeskError === 'function'
  );
}

/**
 * Creates the table of core handlers that every transport calls (Electron IPC, the browser host,
 * tests). Modelled on Actual Budget's `app.method(name, handler)`: one flat namespace, duplicates throw.
 */
export function createHandlerRegistry(options: HandlerRegistryOptions = {}): HandlerRegistry {
  const logError = options.logError ?? ((message, error) => console.error(message, error));
  const handlers = new Map<DeskMethodName, (input: unknown) => unknown>();

  function toDeskError(name: string, error: unknown): DeskError {
    if (error instanceof DeskCallError) return error.toDeskError();
    if (isConvertible(error)) return error.toDeskError();
    logError(`Desk method ${name} failed`, error);
    const reason = error instanceof Error ? error.message : String(error);
    return { code: 'internal_error', message: `Something went wrong in the desk (${name}): ${reason}` };
  }

  async function run(name: string, input: unknown): Promise<DeskResult> {
    if (!isDeskMethodName(name)) {
      return {
        ok: false,
        error: { code: 'unknown_method', message: `The desk has no method named "${name}".` },
      };
    }
    const handler = handlers.get(name);
    if (!handler) {
      return {
        ok: false,
        error: { code: 'unknown_method', message: `The desk method ${name} is not available.` },
      };
    }
    const spec = deskMethods[name];
    const parsed = (spec.input as z.ZodType).safeParse(input);
    if (!parsed.success) {
      const fieldErrors = toFieldErrors(parsed.error, input);
      return {
        ok: false,
        error: { code: 'invalid_input', message: describeFieldErrors(fieldErrors), fieldErrors },
      };
    }
    let output: unknown;
    try {
      output = await handler(parsed.data);
    } catch (error) {
      return { ok: false, error: toDeskError(name, error) };
    }
    const checked = (spec.output as z.ZodType).safeParse(output);
    if (!checked.success) {
      logError(`Desk method ${name} returned an invalid reply`, z.prettifyError(checked.error));
      return {
        ok: false,
        error: { code: 'internal_error', message: `The desk produced an invalid reply for ${name}.` },
      };
    }
    return { ok: true, value: checked.data };
  }

  return {
    handle(name, handler) {
      if (!isDeskMethodName(name))
        throw new Error(`Unknown desk method "${String(name)}": add it to deskMethods.`);
      if (handlers.has(name)) throw new Error(`Desk method ${name} already has a handler.`);
      handlers.set(name, handler as (input: unknown) => unknown);
    },
    call(name, input) {
      options.onTransportCall?.(name);
      return run(name, input);
    },
    async invoke(name, input) {
      const result = await run(name, input);
      if (!result.ok) throw new DeskCallError(result.error);
      return result.value as DeskOutput<typeof name>;
    },
    missing() {
      return (Object.keys(deskMethods) as DeskMethodName[]).filter((name) => !handlers.has(name));
    },
  };
}
