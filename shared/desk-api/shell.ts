import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/**
 * Events the desktop shell (Electron's main process) sends to the window beside the core's own: app commands
 * chosen in the menus, and the state of the core's process. Browser mode never sends them.
 */
export const MENU_COMMANDS = ['sync-now', 'new-intake', 'find', 'print', 'settings'] as const;
export const menuCommandSchema = lazySchema(() => z.enum(MENU_COMMANDS));
export type MenuCommand = z.infer<typeof menuCommandSchema>;

export const menuCommandEventSchema = lazySchema(() =>
  z.object({
    type: z.literal('menu-command'),
    command: menuCommandSchema,
  }),
);

/**
 * The core's process: `restarting` after it stopped unexpectedly (calls in flight failed; nothing queued is lost,
 * the outbox is on disk), `running` once it answers again, `failed` when it could not be brought back.
 */
export const deskProcessEventSchema = lazySchema(() =>
  z.object({
    type: z.literal('desk-process'),
    state: z.enum(['restarting', 'running', 'failed']),
    message: z.string().nullable(),
  }),
);
export type DeskProcessEvent = z.infer<typeof deskProcessEventSchema>;
