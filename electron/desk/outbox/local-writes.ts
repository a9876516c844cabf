import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  describeFieldErrors,
  type FieldError,
  personCreateSchema,
  petCreateSchema,
  petUpdateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import type { DuplicateWarning, LocalWriteResult } from '../../../shared/desk-api/outbox';
import {
  createLocalRecord,
  type EntityType,
  getContract,
  getPerson,
  getPet,
  type LocalFields,
  type MirrorDb,
  setLocalEdit,
  statement,
} from '../mirror';
import { findPersonDuplicates, findPetDuplicates } from './duplicates';
import {
  deleteEntry,
  entityEntries,
  entryBase,
  entryError,
  entryFields,
  insertEntry,
  mappedServerId,
  resubmitEntry,
  rewriteUnsentEntry,
} from './outbox-store';
import { requireKeptPhotos } from './photo-uploads';
import { rebuildOverlay } from './settle';
import {
  isComparablePetField,
  isLocalId,
  LocalWriteError,
  localIdAsUuid,
  pick,
  sameFieldValue,
} from './values';

export interface LocalWriteContext {
  db: MirrorDb;
  now: () => number;
  /** Merge an edit into the record's last never-sent entry (default true; the bench turns it off). */
  merge?: boolean;
}

export interface WriteOptions {
  /** Queue even though duplicate warnings were found. */
  force?: boolean | undefined;
}

/**
 * Validates with a contract schema; the body may reference local ids, which are checked as the UUIDs they will
 * become. Throws `LocalWriteError` naming every offending field.
 */
function validate<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const probe = JSON.parse(
    JSON.stringify(input ?? null, (_key, value) =>
      typeof value === 'string' ? localIdAsUuid(value) : value,
    ),
  );
  const parsed = schema.safeParse(probe);
  if (!parsed.success) {
    const fieldErrors: FieldError[] = toFieldErrors(parsed.error, probe);
    throw new LocalWriteError(
      'invalid_input',
      `${describeFieldErrors(fieldErrors).replace(/^Invalid request/, `Invalid ${what}`)}. Fix the named field${fieldErrors.length > 1 ? 's' : ''} and save again.`,
      fieldErrors,
    );
  }
  return parsed.data;
}

/** The input with each string trimmed where the contract trims it, local ids kept as they are. */
function normalised<T extends Record<string, unknown>>(input: T, parsed: Record<string, unknown>): T {
  const result: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' && typeof input[key] === 'string' && !isLocalId(input[key] as string)) {
      result[key] = value;
    }
  }
  return result as T;
}

/**
 * Finds a mirrored pet by server id, local id (also after its create was accepted) or `custom_id`.
 * @throws LocalWriteError not_found with what to do next.
 */
export function resolvePetId(db: MirrorDb, idOrCustomId: string): string {
  const wanted = idOrCustomId.trim();
  if (getPet(db, wanted)) return wanted;
  const mapped = mappedServerId(db, 'pet', wanted);
  if (mapped && getPet(db, mapped)) return mapped;
  const byCustomId = statement(
    db,
    `SELECT id FROM pet WHERE custom_id = ? AND presence != 'removed' ORDER BY presence = 'local', seq LIMIT 2`,
  ).all(wanted) as { id: string }[];
  if (byCustomId.length === 1 && byCustomId[0]) return byCustomId[0].id;
  if (byCustomId.length > 1) {
    throw new LocalWriteError(
      'conflict',
      `More than one pet has custom_id "${wanted}"; use the pet's id instead.`,
    );
  }
  throw new LocalWriteError(
    'not_found',
    `No pet with id or custom_id "${wanted}" is on this desk. Check the id, or sync first to fetch it.`,
  );
}

function resolvePersonPetId(db: MirrorDb, id: string, field: string): string {
  if (!isLocalId(id)) return id;
  const mapped = mappedServerId(db, 'pet', id);
  if (mapped) return mapped;
  if (getPet(db, id)) return id;
  throw new LocalWriteError('not_found', `${field}: no pet with local id ${id} is on this desk.`, [
    { field, message: 'is not a pet on this desk' },
  ]);
}

function queuedResult(
  db: MirrorDb,
  entityType: EntityType,
  entityId: string,
  entryIds: number[],
  createdPetIds: string[] = [],
): LocalWriteResult {
  const mirrored = entityType === 'pet' ? getPet(db, entityId) : getPerson(db, entityId);
  return {
    status: 'queued',
    entityType,
    entityId,
    entryIds,
    createdPetIds,
    record: (mirrored?.record ?? {}) as Record<string, unknown>,
  };
}

function held(warnings: DuplicateWarning[]): LocalWriteResult {
  return { status: 'duplicates', warnings };
}

/** Queues the create of a new pet, created in the mirror at once under a local id. Call inside a transaction. */
function enqueuePetCreate(
  context: LocalWriteContext,
  fields: LocalFields,
): { localId: string; entryId: number } {
  const { db } = context;
  const localId = createLocalRecord(db, 'pet', fields);
  const entryId = insertEntry(db, {
    operation: 'pet.create',
    entityType: 'pet',
    entityId: localId,
    method: 'POST',
    path: '/api/pets',
    body: JSON.stringify(fields),
    idempotencyKey: randomUUID(),
    fields,
    base: null,
    now: context.now(),
  });
  return { localId, entryId };
}

/**
 * Creates a pet on this desk: validated as a POST /api/pets body, stored in the mirror under a local id and queued
 * in the same transaction. A microchip already on another pet holds the write back unless `force`.
 * @throws LocalWriteError invalid_input naming each bad field.
 */
export function createPet(
  context: LocalWriteContext,
  input: Record<string, unknown>,
  options: WriteOptions = {},
): LocalWriteResult {
  const parsed = validate(petCreateSchema, input, 'pet');
  const fields = normalised(input, parsed);
  if (!options.force) {
    const warnings = findPetDuplicates(context.db, fields);
    if (warnings.length > 0) return held(warnings);
  }
  const { localId, entryId } = context.db.transaction(() => {
    // In the transaction: a photo swept between a check and the write would go unsaid.
    requireKeptPhotos(context.db, fields.image_urls);
    return enqueuePetCreate(context, fields);
  })();
  return queuedResult(context.db, 'pet', localId, [entryId]);
}

/**
 * Changes some fields of a mirrored pet: only fields whose value differs from what the desk shows are queued
 * (PATCH). The edit shows in the mirror at once. Merged into the pet's last entry when that entry was never sent
 * (its body and key are still free to change), or into a create the server refused (`foldIntoRefusedCreate`);
 * otherwise a new entry follows it.
 * @throws LocalWriteError (invalid fields, unknown pet, nothing changed).
 */
export function updatePet(
  context: LocalWriteContext,
  idOrCustomId: string,
  input: Record<string, unknown>,
  options: WriteOptions = {},
): LocalWriteResult {
  const { db } = context;
  const parsed = validate(petUpdateSchema, input, 'pet update');
  const id = resolvePetId(db, idOrCustomId);
  const current = getPet(db, id);
  if (!current) throw new LocalWriteError('not_found', `No pet ${id} on this desk.`);
  const shown = current.record as unknown as Record<string, unknown>;
  const all = normalised(input, parsed);
  const changed: LocalFields = {};
  for (const [field, value] of Object.entries(all)) {
    if (isComparablePetField(field) && sameFieldValue(field, value, shown[field])) continue;
    changed[field] = value;
  }
  if (Object.keys(changed).length === 0) {
    throw new LocalWriteError(
      'invalid_input',
      `Nothing to change: pet "${current.record.name}" already has these values.`,
    );
  }
  if (!options.force) {
    const warnings = findPetDuplicates(db, changed, id);
    if (warnings.length > 0) return held(warnings);
  }
  const serverRow = statement(db, 'SELECT server_json FROM pet WHERE id = ?').get(id) as {
    server_json: string | null;
  };
  const server = serverRow.server_json
    ? (JSON.parse(serverRow.server_json) as Record<string, unknown>)
    : null;
  const base = server ? pick(server, Object.keys(changed).filter(isComparablePetField)) : null;
  const entryIds = db.transaction(() => {
    if ('image_urls' in changed) requireKeptPhotos(db, changed.image_urls);
    setLocalEdit(db, 'pet', id, changed);
    if (context.merge !== false) {
      const folded = foldIntoRefusedCreate(db, id, changed);
      if (folded !== undefined) return [folded];
    }
    const last = entityEntries(db, 'pet', id).at(-1);
    if (
      context.merge !== false &&
      last &&
      last.state === 'pending' &&
      last.first_sent_ms === null &&
      (last.operation === 'pet.update' || last.operation === 'pet.create')
    ) {
      const fields = { ...entryFields(last), ...changed };
      if (last.operation === 'pet.create') validate(petCreateSchema, fields, 'pet');
      const mergedBase =
        last.operation === 'pet.update' ? { ...(base ?? {}), ...(entryBase(last) ?? {}) } : null;
      if (rewriteUnsentEntry(db, last.id, { body: JSON.stringify(fields), fields, base: mergedBase })) {
        return [last.id];
      }
    }
    return [
      insertEntry(db, {
        operation: 'pet.update',
        entityType: 'pet',
        entityId: id,
        method: 'PATCH',
        path: `/api/pets/${encodeURIComponent(id)}`,
        body: JSON.stringify(changed),
        idempotencyKey: randomUUID(),
        fields: changed,
        base: base && Object.keys(base).length > 0 ? base : null,
        now: context.now(),
      }),
    ];
  })();
  return queuedResult(db, 'pet', id, entryIds);
}

/**
 * An edit of a pet created here whose create the server refused (a 4xx: it made no pet) puts that create right: the
 * edit and the never-sent edits queued behind the create are folded into its body, in order, and it is sent again
 * with a new key. Sent as a PATCH behind it instead, the edit would wait on a create that goes nowhere until someone
 * edits its JSON on Sync. Returns the create's entry id, or undefined when the pet has no such create.
 */
function foldIntoRefusedCreate(db: MirrorDb, id: string, changed: LocalFields): number | undefined {
  const [create, ...later] = entityEntries(db, 'pet', id);
  if (create?.operation !== 'pet.create' || create.state !== 'needs-attention') return undefined;
  const status = entryError(create)?.status ?? null;
  if (status === null || status < 400 || status >= 500) return undefined;
  if (later.some((entry) => entry.operation !== 'pet.update' || entry.first_sent_ms !== null))
    return undefined;
  const fields: LocalFields = Object.assign({}, entryFields(create), ...later.map(entryFields), changed);
  validate(petCreateSchema, fields, 'pet');
  for (const entry of later) deleteEntry(db, entry.id);
  resubmitEntry(db, create.id, {
    body: JSON.stringify(fields),
    path: create.path,
    fields,
    idempotencyKey: randomUUID(),
  });
  rebuildOverlay(db, 'pet', id);
  return create.id;
}

/**
 * An application accepts the shelter's agreement: while the shelter has one with no text (synced, and empty), there is
 * nothing to accept, and the application is refused here rather than recorded as accepted.
 */
function refuseWithoutAgreement(db: MirrorDb, type: 'adopter' | 'foster'): void {
  const contract = getContract(db, type);
  if (contract?.content.trim() !== '') return;
  const agreement = type === 'adopter' ? 'adoption agreement' : 'foster agreement';
  throw new LocalWriteError(
    'invalid_input',
    `The shelter has not written its ${agreement} yet, so the application has nothing to accept: sign the person up without it, or write the agreement first (Shelter, Contracts on the desk that runs the shelter).`,
    [{ field: 'application.terms_accepted', message: `the shelter has no ${agreement} to accept yet` }],
  );
}

/**
 * Creates a person on this desk from a POST /api/people request: an adopter or foster (optionally with an
 * `application` whose `pet_ids` may be local ids), a surrender (its `pets` either `{create: <pet fields>, …}`,
 * queued first as pet creates of their own and then linked by id, as the official SDK does, or `{pet_id, …}`), or
 * a volunteer. Same email, or same name and phone, as a mirrored person holds the write back unless `force`.
 * @throws LocalWriteError naming each bad field.
 */
export function createPerson(
  context: LocalWriteContext,
  input: Record<string, unknown>,
  options: WriteOptions = {},
): LocalWriteResult {
  const { db } = context;
  const parsed = validate(personCreateSchema, input, 'person');
  const request: Record<string, unknown> = normalised(input, parsed as Record<string, unknown>);
  const application = request.application as { pet_ids: string[] } | undefined;
  if (application) {
    refuseWithoutAgreement(db, request.type === 'foster' ? 'foster' : 'adopter');
    request.application = {
      ...application,
      pet_ids: application.pet_ids.map((petId, index) =>
        resolvePersonPetId(db, petId, `application.pet_ids[${index}]`),
      ),
    };
  }
  const surrendered = Array.isArray(request.pets) ? (request.pets as Record<string, unknown>[]) : undefined;
  if (surrendered) {
    surrendered.forEach((item, index) => {
      if (typeof item.pet_id === 'string') {
        surrendered[index] = {
          ...item,
          pet_id: resolvePersonPetId(db, item.pet_id, `pets[${index}].pet_id`),
        };
      }
    });
  }
  if (!options.force) {
    const warnings = [
      ...findPersonDuplicates(db, request),
      ...(surrendered ?? []).flatMap((item) =>
        item.create ? findPetDuplicates(db, item.create as LocalFields) : [],
      ),
    ];
    if (warnings.length > 0) return held(warnings);
  }
  const result = db.transaction(() => {
    const entryIds: number[] = [];
    const createdPetIds: string[] = [];
    if (surrendered) {
      request.pets = surrendered.map((item) => {
        if (!item.create) return item;
        const { create, ...link } = item;
        const { localId, entryId } = enqueuePetCreate(context, create as LocalFields);
        entryIds.push(entryId);
        createdPetIds.push(localId);
        return { pet_id: localId, ...link };
      });
    }
    const { application: _application, pets: _pets, ...personFields } = request;
    const localId = createLocalRecord(db, 'person', personFields, {
      personType: request.type as 'adopter' | 'foster' | 'surrender' | 'volunteer',
    });
    entryIds.push(
      insertEntry(db, {
        operation: 'person.create',
        entityType: 'person',
        entityId: localId,
        method: 'POST',
        path: '/api/people',
        body: JSON.stringify(request),
        idempotencyKey: randomUUID(),
        fields: personFields,
        base: null,
        now: context.now(),
      }),
    );
    return { localId, entryIds, createdPetIds };
  })();
  return queuedResult(db, 'person', result.localId, result.entryIds, result.createdPetIds);
}

/**
 * Validates the edited body of an entry for its operation (the same rules as the original write).
 * @throws LocalWriteError naming each bad field.
 */
export function validateEntryBody(operation: string, body: Record<string, unknown>): Record<string, unknown> {
  if (operation === 'pet.create') return normalised(body, validate(petCreateSchema, body, 'pet'));
  if (operation === 'pet.update') return normalised(body, validate(petUpdateSchema, body, 'pet update'));
  return normalised(body, validate(personCreateSchema, body, 'person') as Record<string, unknown>);
}
