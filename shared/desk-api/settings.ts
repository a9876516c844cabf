import { z } from 'zod';
import { DEFAULT_CURRENCY, isCurrencyCode } from '../wording/money';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

export const COLOR_SCHEMES = ['auto', 'light', 'dark'] as const;
/** How a typed date such as 03/04/2026 is read: as the computer's language writes dates, or as chosen. */
export const DATE_ORDERS = ['auto', 'day-first', 'month-first'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/** An ISO 4217 code ("EUR"); lower case is accepted and stored in upper case. */
const currencySchema = lazySchema(() =>
  z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCurrencyCode, { error: 'must be a currency code such as USD, EUR or GBP' }),
);

/**
 * The desk's own preferences (not shelter data): kept in `<dataDir>/settings.json`.
 * Every field has a default so an older or partial file still loads.
 */
export const deskSettingsSchema = lazySchema(() =>
  z.object({
    /** auto follows the operating system. */
    colorScheme: z.enum(COLOR_SCHEMES).default('auto'),
    /** Shown in the header so volunteers at several rescues see which one this desk serves. */
    shelterName: z.string().trim().max(80).default(''),
    /** The shelter's currency: fees on the screens, kennel cards and contracts are shown in it. */
    currency: currencySchema.default(DEFAULT_CURRENCY),
    /** This desk's name ("Front desk"): a shelter lists the key this desk pairs with under it (empty: the host name). */
    deskName: z.string().trim().max(60).default(''),
    /** How typed dates are read (03/04: 3 April or 4 March); auto follows the computer's language. */
    dateOrder: z.enum(DATE_ORDERS).default('auto'),
  }),
);
export type DeskSettings = z.infer<typeof deskSettingsSchema>;

/** A change: any subset of the settings, at least one, nothing unknown. */
export const deskSettingsPatchSchema = lazySchema(() =>
  z
    .strictObject({
      colorScheme: z.enum(COLOR_SCHEMES),
      shelterName: z.string().trim().max(80, { error: 'must be at most 80 characters' }),
      currency: currencySchema,
      deskName: z.string().trim().max(60, { error: 'must be at most 60 characters' }),
      dateOrder: z.enum(DATE_ORDERS),
    })
    .partial()
    .refine((patch) => Object.keys(patch).length > 0, { error: 'must change at least one setting' }),
);
export type DeskSettingsPatch = z.infer<typeof deskSettingsPatchSchema>;

export const settingsMethods = {
  'settings.get': defineMethod(() => ({
    summary: 'The current desk settings (defaults filled in).',
    input: noInput,
    output: deskSettingsSchema,
  })),
  'settings.update': defineMethod(() => ({
    summary: 'Change some settings; returns all settings after the change and emits a settings event.',
    input: deskSettingsPatchSchema,
    output: deskSettingsSchema,
  })),
};
