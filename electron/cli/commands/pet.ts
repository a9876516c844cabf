import { ageGroupNote } from '../../../shared/wording/age';
import { microchipNote } from '../../../shared/wording/microchip';
import { readPetChoice } from '../../desk/import/values';
import { localToday } from '../../desk/print/words';
import { asChoice, CliUsageError, defaultDataDir } from '../args';
import type { CliCommand, CliIo } from './command';
import { runPetPhoto } from './pet-photo';
import { parseWriteCall, runWrite } from './write-command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run cli -- pet create --json '<pet write fields>' [--force] [--data-dir DIR]
       npm run cli -- pet update <id | custom_id | local id> --json '<fields to change>' [--force] [--data-dir DIR]
       npm run cli -- pet photo add <id | custom_id> FILE... [--data-dir DIR]
       npm run cli -- pet photo remove <id | custom_id> <position | address>... [--data-dir DIR]

  create   a new pet (required: name, species, age_category, sex, size, status, health); saved on this desk
           at once under a local id and sent by the next sync
  update   change only the given fields (sent as a PATCH)
  photo    add photo files (turned upright, at most 1600 px, re-encoded without metadata such as GPS; up to
           50 MB each) after the pet's photos, or remove photos by position (1 is the main photo) or address
  --force  save even when the microchip is already on another pet
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Prints the saved record as JSON. Works offline.`;

const CHOICE_FIELDS = ['species', 'sex', 'size', 'age_category', 'health'] as const;

/** The pet's choices as staff write them on the desk ("Cat", "Baby", "Extra small") taken as the API's values. */
export function withApiChoices(fields: Record<string, unknown>): Record<string, unknown> {
  const read = { ...fields };
  for (const field of CHOICE_FIELDS) {
    const value = read[field];
    if (typeof value === 'string') read[field] = readPetChoice(field, value) ?? value;
  }
  return read;
}

/**
 * Once the pet is saved, what the pet form says at its fields: a microchip number no chip carries, an age group the
 * birthday or the age given does not fall in.
 */
function noteAfterSave(fields: Record<string, unknown>, code: number, io: CliIo): number {
  if (code !== 0) return code;
  const chip = fields.microchip_id;
  const chipNote = typeof chip === 'string' ? microchipNote(chip) : undefined;
  if (chipNote) io.stderr(`Check the microchip ${chip}: ${chipNote}\n`);
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const ageNote = ageGroupNote(
    {
      age_category: text('age_category'),
      age_birthday: text('age_birthday'),
      age_years: text('age_years'),
      age_months: text('age_months'),
    },
    localToday(),
  );
  if (ageNote) io.stderr(`Check the age group: ${ageNote}\n`);
  return code;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const call = parseWriteCall('pet', usage(), argv, io);
  if (!call) return 0;
  const [typedAction, id, extra] = call.words;
  const action = asChoice(typedAction);
  if (action === 'photo') return runPetPhoto(call, io);
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, call.hint);
  if (action === 'create') {
    if (id !== undefined) throw new CliUsageError(`pet create takes no id (got "${id}").`, call.hint);
    const fields = withApiChoices(call.fields());
    const code = await runWrite(call, io, { create: true }, (core) =>
      core.registry.invoke('outbox.createPet', { fields, force: call.force }),
    );
    return noteAfterSave(fields, code, io);
  }
  if (action === 'update') {
    if (!id) {
      throw new CliUsageError('Name the pet: pet update <id | custom_id | local id> --json ...', call.hint);
    }
    const fields = withApiChoices(call.fields());
    const code = await runWrite(call, io, { create: false }, (core) =>
      core.registry.invoke('outbox.updatePet', { id, fields, force: call.force }),
    );
    return noteAfterSave(fields, code, io);
  }
  throw new CliUsageError(
    typedAction ? `Unknown pet action "${typedAction}".` : 'Name an action: create or update.',
    call.hint,
  );
}

export const petCommand: CliCommand = {
  run,
};
