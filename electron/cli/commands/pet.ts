import { calendarDayAsDateTime, dateTimeSchema } from '../../../shared/contract/primitives';
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

In --json, choices may be written as the desk shows them ("Cat", "Baby", "Extra small"), and dates (age_birthday,
intake_date, outcome_date) as a calendar day, 2019-03-02, or as an ISO date-time.

Prints the saved record as JSON. Works offline.`;

const CHOICE_FIELDS = ['species', 'sex', 'size', 'age_category', 'health'] as const;
const DATE_FIELDS = ['age_birthday', 'intake_date', 'outcome_date'] as const;
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The pet's fields as staff write them on the desk, taken as the API's values: choices in words ("Cat", "Baby",
 * "Extra small") and dates as calendar days ("2019-03-02", sent as midnight UTC of that day, as the pet form sends
 * them; never through a time zone). Anything else is left as typed, for the contract to name.
 * @throws CliUsageError for a calendar day that does not exist (2019-02-30).
 */
function withApiValues(fields: Record<string, unknown>, hint: string): Record<string, unknown> {
  const read = { ...fields };
  for (const field of CHOICE_FIELDS) {
    const value = read[field];
    if (typeof value === 'string') read[field] = readPetChoice(field, value) ?? value;
  }
  for (const field of DATE_FIELDS) {
    const value = read[field];
    const day = typeof value === 'string' ? value.trim() : '';
    if (!CALENDAR_DAY.test(day)) continue;
    read[field] = calendarDayAsDateTime(day);
    if (!dateTimeSchema.safeParse(read[field]).success) {
      throw new CliUsageError(
        `${field}: ${day} is not a day of the calendar: check the month and the day.`,
        hint,
      );
    }
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
    const fields = withApiValues(call.fields(), call.hint);
    const code = await runWrite(call, io, { create: true }, (core) =>
      core.registry.invoke('outbox.createPet', { fields, force: call.force }),
    );
    return noteAfterSave(fields, code, io);
  }
  if (action === 'update') {
    if (!id) {
      throw new CliUsageError('Name the pet: pet update <id | custom_id | local id> --json ...', call.hint);
    }
    const fields = withApiValues(call.fields(), call.hint);
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
