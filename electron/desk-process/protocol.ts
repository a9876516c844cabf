import { z } from 'zod';
import { deskSettingsSchema, deskStatusSchema } from '../../shared/desk-api';

/**
 * Messages between Electron's main process and the core's process (over `process.parentPort`). Both ends
 * validate what they receive. Renderer traffic does not pass here: each window talks to the core over its own
 * MessagePort (`connect` hands the core its end).
 */
export const SECRET_PROTECTIONS = ['encrypted', 'owner-only-file'] as const;

export const toCoreSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    dataDir: z.string().min(1),
    appVersion: z.string(),
    shellVersions: z.object({ electron: z.string().optional(), chrome: z.string().optional() }),
    /** Where core.log goes; null = no log file (tests). */
    logDir: z.string().nullable(),
    /** How main keeps secrets (the settings screen shows it). */
    secretProtection: z.enum(SECRET_PROTECTIONS),
  }),
  /** A window's end of a fresh channel is in `ports[0]`. */
  z.object({ type: z.literal('connect') }),
  z.object({
    type: z.literal('secret-reply'),
    id: z.number().int(),
    ok: z.boolean(),
    value: z.string().nullable(),
    message: z.string().nullable(),
  }),
  /** Close the core cleanly (databases checkpointed), answer `stopped`, exit. */
  z.object({ type: z.literal('stop') }),
]);
export type ToCore = z.infer<typeof toCoreSchema>;

export const fromCoreSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), settings: deskSettingsSchema, status: deskStatusSchema }),
  /** The core could not open (restarting would fail the same way): `message` says why. */
  z.object({ type: z.literal('failed'), message: z.string() }),
  /** The core asks main's secret store (safeStorage lives in main). */
  z.object({
    type: z.literal('secret'),
    id: z.number().int(),
    op: z.enum(['get', 'set', 'delete']),
    name: z.string(),
    value: z.string().nullable(),
  }),
  /** Status and settings, for the badge, the theme and the updater's "not during a sync". */
  z.object({ type: z.literal('status'), status: deskStatusSchema }),
  z.object({ type: z.literal('settings'), settings: deskSettingsSchema }),
  /** A restore of the shelter database started or ended (the updater waits for it to end). */
  z.object({ type: z.literal('restore'), running: z.boolean() }),
  /** An error line of core.log, for Help → Copy diagnostics. */
  z.object({ type: z.literal('error-line'), line: z.string() }),
  z.object({ type: z.literal('stopped') }),
]);
export type FromCore = z.infer<typeof fromCoreSchema>;

/** What the core's process needs of `process.parentPort` (an Electron ParentPort; a stand-in in tests). */
export interface ParentPortLike {
  on(event: 'message', listener: (message: { data: unknown; ports: PortLike[] }) => void): unknown;
  postMessage(message: unknown): void;
}

/** What both ends need of a channel's port (Electron's MessagePortMain; a stand-in in tests). */
export interface PortLike {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}
