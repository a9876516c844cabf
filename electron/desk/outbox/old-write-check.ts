import { z } from 'zod';
import {
  IDEMPOTENCY_RETENTION_MS,
  matchKnownPetStatus,
  peopleListResponseSchema,
  petListResponseSchema,
  petSchema,
} from '../../../shared/contract';
import type { ApiClient } from '../client';
import type { LocalFields } from '../mirror';
import { entryBase, entryFields, type OutboxRow } from './outbox-store';
import { isComparablePetField, sameFieldValue } from './values';

/**
 * Entries first sent longer ago than this may have outlived the server's memory of their Idempotency-Key (24 h):
 * an hour of margin covers clock differences and the time the first request took.
 */
export const OLD_WRITE_MS = IDEMPOTENCY_RETENTION_MS - 60 * 60 * 1000;
/** How far before the first send a matching record may have been created (server and desk clocks differ). */
const CLOCK_MARGIN_MS = 15 * 60 * 1000;
const MAX_PAGES = 20;

/**
 * What to do with an entry whose first send may be older than the server's key retention:
 * - `send`: it certainly did not happen (or resending changes nothing): send it (same key);
 * - `done`: it already happened; settle with this record instead of sending;
 * - `ask`: the desk cannot tell; a person must decide (needs attention, with `reason`).
 */
export type OldWriteVerdict =
  | { verdict: 'send' }
  | { verdict: 'done'; record: Record<string, unknown> & { id: string } }
  | { verdict: 'ask'; reason: string };

/** True when the entry was handed to the network before and so long ago that its key may be forgotten. */
export function isOldWrite(entry: OutboxRow, now: number): boolean {
  return entry.first_sent_ms !== null && now - entry.first_sent_ms > OLD_WRITE_MS;
}

function matchesPet(candidate: Record<string, unknown>, fields: LocalFields): boolean {
  return Object.entries(fields).every(
    ([field, value]) => !isComparablePetField(field) || sameFieldValue(field, value, candidate[field]),
  );
}

function createdAfter(candidate: Record<string, unknown>, ms: number): boolean {
  const created = Date.parse(String(candidate.created_at ?? ''));
  return !Number.isNaN(created) && created >= ms - CLOCK_MARGIN_MS;
}

/**
 * Decides whether an old write already happened, without trusting the expired key:
 * - PATCH: fetch the pet. Every sent field already shows the sent value: done (resending would change nothing
 *   but is not needed). Every such field still shows the value it had before the edit: it did not happen, send.
 *   Anything else (a third value): someone else changed it since, and resending might undo their change: ask.
 * - POST pet: list the pets created since the first send (`updated_since`, searched by name) and look for one
 *   whose every sent field matches: done. The list shows only public pets, so "not found" proves the create did
 *   not happen only for a pet that would be listed (`show_public` not false, a known status, no custom status);
 *   for any other pet: ask.
 * - POST person: the same search over the people of that type by email (or name), matching name, email, phone.
 */
export async function checkOldWrite(
  client: ApiClient,
  entry: OutboxRow,
  signal?: AbortSignal,
): Promise<OldWriteVerdict> {
  const fields = entryFields(entry);
  const since = new Date((entry.first_sent_ms ?? 0) - CLOCK_MARGIN_MS).toISOString();
  if (entry.operation === 'pet.update') {
    const petId = decodeURIComponent(entry.path.slice('/api/pets/'.length));
    const fetched = await client.get(`/api/pets/${encodeURIComponent(petId)}`, {
      schema: petSchema.loose(),
      allowNotFound: true,
      ...(signal && { signal }),
    });
    if (fetched.status !== 200) return { verdict: 'send' };
    const shown = fetched.body as Record<string, unknown> & { id: string };
    const comparable = Object.keys(fields).filter(isComparablePetField);
    if (comparable.every((field) => sameFieldValue(field, fields[field], shown[field]))) {
      return { verdict: 'done', record: shown };
    }
    const base = entryBase(entry) ?? {};
    if (comparable.every((field) => field in base && sameFieldValue(field, base[field], shown[field]))) {
      return { verdict: 'send' };
    }
    return {
      verdict: 'ask',
      reason:
        'This update was first sent more than a day ago without an answer, and the pet has changed on the server since. Check the pet, then resubmit or discard this change.',
    };
  }
  if (entry.operation === 'pet.create') {
    const name = typeof fields.name === 'string' ? fields.name : '';
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const query = new URLSearchParams({
        updated_since: since,
        search: name,
        limit: '100',
        offset: String(page * 100),
      });
      const listed = await client.get(`/api/pets?${query}`, {
        schema: petListResponseSchema,
        ...(signal && { signal }),
      });
      if (listed.status !== 200) break;
      const found = listed.body.pets.find(
        (pet) =>
          matchesPet(pet as unknown as Record<string, unknown>, fields) &&
          createdAfter(pet as unknown as Record<string, unknown>, entry.first_sent_ms ?? 0),
      );
      if (found)
        return { verdict: 'done', record: found as unknown as Record<string, unknown> & { id: string } };
      if (!listed.body.hasMore) break;
    }
    const wouldBeListed =
      fields.show_public !== false &&
      fields.custom_status_id === undefined &&
      typeof fields.status === 'string' &&
      matchKnownPetStatus(fields.status) !== undefined;
    if (wouldBeListed) return { verdict: 'send' };
    return {
      verdict: 'ask',
      reason:
        'This new pet was first sent more than a day ago without an answer, and as a pet hidden from the public list the desk cannot check whether the server created it. Look for it in the pets list, then resubmit or discard.',
    };
  }
  const type = z.string().parse(fields.type);
  const email = typeof fields.email === 'string' ? fields.email : null;
  const name = typeof fields.name === 'string' ? fields.name : '';
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({
      type,
      updated_since: since,
      search: email ?? name,
      limit: '100',
      offset: String(page * 100),
    });
    const listed = await client.get(`/api/people?${query}`, {
      schema: peopleListResponseSchema,
      ...(signal && { signal }),
    });
    if (listed.status !== 200) break;
    const found = listed.body.people.find(
      (person) =>
        person.name.trim().toLowerCase() === name.trim().toLowerCase() &&
        (person.email ?? null)?.toLowerCase() === (email ?? null)?.toLowerCase() &&
        (person.phone ?? null) === ((fields.phone as string | null | undefined) ?? null) &&
        createdAfter(person as unknown as Record<string, unknown>, entry.first_sent_ms ?? 0),
    );
    if (found)
      return { verdict: 'done', record: found as unknown as Record<string, unknown> & { id: string } };
    if (!listed.body.hasMore) break;
  }
  return { verdict: 'send' };
}
