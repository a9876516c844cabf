import type { z } from 'zod';
import { appMethods } from './app';
import type { DeskTransport } from './channels';
import { dashboardMethods } from './dashboard';
import { draftMethods } from './drafts';
import { DeskCallError, type DeskError, deskResultSchema } from './errors';
import { type DeskEvent, deskEventSchema } from './events';
import { importMethods } from './import';
import { mirrorMethods } from './mirror';
import { outboxMethods } from './outbox';
import { peopleMethods } from './people';
import { photoMethods } from './photos';
import { printMethods } from './print';
import { settingsMethods } from './settings';
import { shelterMethods } from './shelter';
import { statusMethods } from './status';
import { syncMethods } from './sync';

export * from './app';
export * from './channels';
export * from './connection-code';
export * from './dashboard';
export * from './define';
export * from './drafts';
export * from './errors';
export * from './events';
export * from './import';
export * from './mirror';
export * from './outbox';
export * from './people';
export * from './photos';
export * from './port-channels';
export * from './print';
export * from './settings';
export * from './shell';
export * from './shelter';
export * from './status';
export * from './sync';

/**
 * Every method of the bridge, by name. To add a feature: write `shared/desk-api/<feature>.ts` exporting
 * `<feature>Methods = { '<feature>.<verb>': defineMethod({ summary, input, output }) }` and spread it here.
 */
export const deskMethods = {
  ...appMethods,
  ...peopleMethods,
  ...settingsMethods,
  ...statusMethods,
  ...mirrorMethods,
  ...syncMethods,
  ...outboxMethods,
  ...printMethods,
  ...dashboardMethods,
  ...shelterMethods,
  ...photoMethods,
  ...importMethods,
  ...draftMethods,
};

export type DeskMethods = typeof deskMethods;
export type DeskMethodName = keyof DeskMethods;
/** What the caller passes (before zod defaults and transforms). */
export type DeskInput<M extends DeskMethodName> = z.input<DeskMethods[M]['input']>;
/** What the handler receives (after validation). */
export type DeskParsedInput<M extends DeskMethodName> = z.output<DeskMethods[M]['input']>;
export type DeskOutput<M extends DeskMethodName> = z.output<DeskMethods[M]['output']>;

/** Methods whose input may be omitted. */
type CallArgs<M extends DeskMethodName> =
  undefined extends DeskInput<M> ? [input?: DeskInput<M>] : [input: DeskInput<M>];

/** The one interface the renderer knows. */
export interface DeskApi {
  /** Calls a core method; rejects with a `DeskCallError` carrying the `DeskError` shape. */
  call<M extends DeskMethodName>(method: M, ...args: CallArgs<M>): Promise<DeskOutput<M>>;
  /** Listens to core events; returns the function that stops listening. */
  subscribe(listener: (event: DeskEvent) => void): () => void;
}

export function isDeskMethodName(name: string): name is DeskMethodName {
  return Object.hasOwn(deskMethods, name);
}

function malformed(message: string): DeskError {
  return { code: 'transport_failed', message };
}

/**
 * Builds the `DeskApi` over a raw transport (preload IPC or the browser shim). Results and events are
 * checked against their schemas so a mismatched core fails loudly and an unknown event is skipped.
 */
export function createDeskApi(transport: DeskTransport): DeskApi {
  return {
    async call(method, ...args) {
      const raw = await transport.call(method, args[0]);
      const result = deskResultSchema.safeParse(raw);
      if (!result.success)
        throw new DeskCallError(malformed(`The desk sent an unreadable reply to ${method}.`));
      if (!result.data.ok) throw new DeskCallError(result.data.error);
      return result.data.value as DeskOutput<typeof method>;
    },
    subscribe(listener) {
      return transport.subscribe((raw) => {
        const event = deskEventSchema.safeParse(raw);
        if (event.success) listener(event.data);
      });
    },
  };
}
