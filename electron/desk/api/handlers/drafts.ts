import fs from 'node:fs';
import path from 'node:path';
import { DeskCallError, type DraftName, MAX_DRAFT_BYTES } from '../../../../shared/desk-api';
import { writeFileAtomic } from '../../../platform/atomic-file';
import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';

/** Where the forms' typing is kept: `<dataDir>/drafts/<name>.json`, readable by this user only (it holds contacts). */
export function draftFile(dataDir: string, name: DraftName): string {
  return path.join(dataDir, 'drafts', `${name}.json`);
}

/**
 * `drafts.*`: what was typed into the intake and sign-up forms and not saved yet, kept on this desk so that a reload,
 * a closed window or a crash at an event loses none of it. A file that cannot be read is no draft.
 */
export function registerDraftHandlers(registry: HandlerRegistry, context: DeskContext): void {
  registry.handle('drafts.get', ({ name }) => {
    try {
      const kept = JSON.parse(fs.readFileSync(draftFile(context.dataDir, name), 'utf8')) as {
        value?: unknown;
        savedAt?: unknown;
      };
      if (typeof kept.savedAt !== 'string' || kept.value === undefined) return null;
      return { value: kept.value, savedAt: kept.savedAt };
    } catch {
      return null;
    }
  });
  registry.handle('drafts.put', ({ name, value }) => {
    const text = JSON.stringify({ value, savedAt: new Date().toISOString() });
    if (Buffer.byteLength(text) > MAX_DRAFT_BYTES) {
      throw new DeskCallError({
        code: 'invalid_input',
        message: `This form holds more than ${MAX_DRAFT_BYTES / 1024} KB of typing; it is not kept through a reload. Save it soon.`,
      });
    }
    const file = draftFile(context.dataDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomic(file, text, 0o600);
    return null;
  });
  registry.handle('drafts.clear', ({ name }) => {
    fs.rmSync(draftFile(context.dataDir, name), { force: true });
    return null;
  });
}
