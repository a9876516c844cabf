import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type DeskSettings, type DeskSettingsPatch, deskSettingsSchema } from '../../../shared/desk-api';
import { moveAside, writeFileAtomic } from '../../platform/atomic-file';

export interface SettingsStore {
  get(): DeskSettings;
  /** Applies a validated change, writes the file atomically, returns the new settings. */
  update(patch: DeskSettingsPatch): DeskSettings;
  readonly filename: string;
}

/**
 * The desk's preferences in `<dataDir>/settings.json`. Unknown keys (from a newer version) are kept on
 * write; an unreadable file is moved aside, never overwritten, and the defaults are used.
 */
export function openSettingsStore(dataDir: string): SettingsStore {
  const filename = path.join(dataDir, 'settings.json');
  let raw: Record<string, unknown> = {};
  try {
    const json: unknown = JSON.parse(fs.readFileSync(filename, 'utf8'));
    const record = z.record(z.string(), z.unknown()).safeParse(json);
    if (record.success) raw = record.data;
    else moveAside(filename, 'not a JSON object');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') moveAside(filename, 'not JSON');
  }

  let current = parseLeniently(raw);

  return {
    filename,
    get: () => current,
    update(patch) {
      const next = deskSettingsSchema.parse({ ...current, ...patch });
      raw = { ...raw, ...next };
      writeFileAtomic(filename, `${JSON.stringify(raw, null, 2)}\n`);
      current = next;
      return current;
    },
  };
}

/** Each field on its own: one bad value falls back to its default without losing the others. */
function parseLeniently(raw: Record<string, unknown>): DeskSettings {
  const defaults = deskSettingsSchema.parse({});
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, field] of Object.entries(deskSettingsSchema.shape)) {
    const parsed = (field as z.ZodType).safeParse(raw[key]);
    if (parsed.success) result[key] = parsed.data;
  }
  return deskSettingsSchema.parse(result);
}
