import { z } from 'zod';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** Input of methods that take nothing: `{}` or omitted. */
export const noInput = lazySchema(() => z.strictObject({}).optional());

export const DESK_MODES = ['desktop', 'browser'] as const;
export const deskModeSchema = lazySchema(() => z.enum(DESK_MODES));
export type DeskMode = z.infer<typeof deskModeSchema>;

export const appInfoSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    version: z.string(),
    /** desktop = the Electron window; browser = served to a browser by `npm start` without Electron. */
    mode: deskModeSchema,
    /** Why the app runs in browser mode, in one sentence; absent on the desktop. */
    modeReason: z.string().optional(),
    dataDir: z.string(),
    platform: z.string(),
    versions: z.object({ node: z.string(), electron: z.string().optional(), chrome: z.string().optional() }),
  }),
);
export type AppInfo = z.infer<typeof appInfoSchema>;

export const appMethods = {
  'app.info': defineMethod(() => ({
    summary: 'Version, mode (desktop or browser) and data folder of this desk.',
    input: noInput,
    output: appInfoSchema,
  })),
};
