import type { z } from 'zod';
import { appMethods } from './app';
import type { DeskTransport } from './channels';
import { createDeskClient } from './client';
import { dashboardMethods } from './dashboard';
import { draftMethods } from './drafts';
import { type DeskEvent, readDeskEvent } from './events';
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
export * from './client';
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
 * `<feature>Methods = { '<feature>.<verb>': defineMethod(() => ({ summary, input, output })) }` and spread it here.
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

/**
 * The `DeskApi` for Node (the desktop shell's tests and benches), its event schemas already loaded. The renderer
 * builds its own with `createDeskClient`, loading them after its first frame.
 */
export function createDeskApi(transport: DeskTransport): DeskApi {
  return createDeskClient(transport, async () => readDeskEvent);
}
