import type { OutboxEntry, OutboxError } from '../../../shared/desk-api';
import { listInWords } from '../../../shared/wording/lists';
import { capitalized, humanize } from '../lib/words';

/** Field names as people say them when they speak of a change ("Bella's adoption fee"). */
const FIELD_WORDS: Record<string, string> = {
  status_change_notes: 'status notes',
  age_category: 'age',
  microchip_id: 'microchip',
  custom_id: 'shelter id',
  custom_field_data: 'custom fields',
  image_urls: 'photos',
  coat_length: 'coat',
  custom_status_id: 'status',
  show_public: 'public listing',
  breed: 'breed',
  color: 'colour',
};

/** A field as the desk's forms name it, in lower case ("shelter id" for `custom_id`). */
export const fieldWord = (field: string) => FIELD_WORDS[field] ?? humanize(field).toLowerCase();

/** "a, b and c", each named once. */
const distinctInWords = (items: readonly string[]) => listInWords([...new Set(items)]);

/** The record's name the desk put in the entry's summary (`Update pet "Bella": …`). */
export function recordNameOf(entry: Pick<OutboxEntry, 'summary'>): string {
  return /"(.*)"/.exec(entry.summary)?.[1] ?? 'this record';
}

const possessive = (name: string) => (name.endsWith('s') ? `${name}’` : `${name}’s`);

/**
 * A change named as people think of it: "New pet Bella", "Bella’s description", "Application from Dana Lee for Rex",
 * "New foster Sam Ortiz". `petNames` names the pets an application is for (ids the caller looked up).
 */
export function changeInWords(
  entry: Pick<OutboxEntry, 'operation' | 'summary' | 'body'>,
  petNames: ReadonlyMap<string, string> = new Map(),
): string {
  const name = recordNameOf(entry);
  const body = entry.body && typeof entry.body === 'object' ? (entry.body as Record<string, unknown>) : {};
  if (entry.operation === 'pet.create') return `New pet ${name}`;
  if (entry.operation === 'pet.update') {
    const fields = Object.keys(body).filter(
      (field) => field !== 'status_change_notes' || !('status' in body),
    );
    return `${possessive(name)} ${distinctInWords(fields.map(fieldWord)) || 'details'}`;
  }
  const type = typeof body.type === 'string' ? body.type : 'person';
  const application = body.application as { pet_ids?: unknown } | undefined;
  const petIds = Array.isArray(application?.pet_ids) ? (application.pet_ids as string[]) : [];
  if (petIds.length > 0) {
    const pets = petIds.map((id) => petNames.get(id) ?? 'a pet');
    return `Application from ${name} for ${distinctInWords(pets)}`;
  }
  if (entry.operation === 'person.create') return `New ${type} ${name}`;
  return `${possessive(name)} ${distinctInWords(Object.keys(body).map(fieldWord)) || 'details'}`;
}

/** The pet ids an entry's application names (to look their names up). */
export function applicationPetIds(entry: Pick<OutboxEntry, 'body'>): string[] {
  const body = entry.body as { application?: { pet_ids?: unknown } } | null;
  const ids = body?.application?.pet_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** A field error as a sentence: "Name must not be empty." */
export function fieldErrorSentence(field: string, message: string): string {
  const text = `${capitalized(fieldWord(field))} ${message}`.trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * A new pet the server refused for what was in it (a 400 or 422): an edit in the pet's own form puts its create
 * right and sends it again (the desk folds the edit into it), so staff need not touch its JSON.
 */
export function putRightInPetForm(entry: Pick<OutboxEntry, 'operation' | 'state' | 'lastError'>): boolean {
  const status = entry.lastError?.status;
  return (
    entry.operation === 'pet.create' &&
    entry.state === 'needs-attention' &&
    (status === 400 || status === 422)
  );
}

/** Why the server refused what a change holds: each field it named, as the forms name it, or its message. */
export function refusalReason(error: OutboxError): string {
  const fields = error.fieldErrors ?? [];
  if (fields.length > 0)
    return fields.map((field) => fieldErrorSentence(field.field, field.message)).join(' ');
  return error.message.replace(/\.?$/, '.');
}

/** What to do about a new pet refused for what it holds (see `putRightInPetForm`). */
export const PET_FORM_REMEDY = 'Open the pet and change it with Edit: saving sends it again. Or discard it.';

/**
 * What went wrong, in words; what the desk does next is part of the sentence. `refused` is true when the change
 * waits for a person (needs attention), false while the desk retries by itself. `remedy` is what a person does about
 * a refusal of what the change holds (by default: edit and resubmit it on Sync, or discard it).
 */
export function errorInWords(
  error: OutboxError,
  refused: boolean,
  remedy = 'Edit and resubmit it, or discard it.',
): string {
  const { status } = error;
  if (status === null) {
    return refused
      ? 'The desk could not tell whether the server already has this change. Check the record on the server, then retry or discard it.'
      : 'The server could not be reached; the change will be sent when it is back.';
  }
  if (status === 429) return 'The server asked the desk to slow down; it will send the change again shortly.';
  if (status >= 500) return 'The server had a problem with this change; the desk will try again by itself.';
  if (status === 401)
    return 'The server refused this desk’s API key. Enter a valid key under Settings; sending waits until then.';
  if (status === 403)
    return 'The API key of this desk may only read. Ask for a key that can write, enter it under Settings, then retry.';
  if (status === 404)
    return 'The server no longer has this record (it may have been deleted there). Discard the change, or edit and retry it.';
  if (status === 405)
    return 'The server does not accept this kind of change. Discard it, or make the change on the server’s own site.';
  if (status === 409)
    return 'The server already used this change’s key for a different change. Edit and resubmit it to send it afresh.';
  if (status === 400 || status === 422)
    return `The server did not accept this change: ${refusalReason(error)} ${remedy}`;
  return `The server answered with an error: ${error.message.replace(/\.?$/, '.')}`;
}
