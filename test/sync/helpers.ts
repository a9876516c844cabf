import { expect } from 'vitest';
import { type ApiClient, createApiClient } from '../../electron/desk/client';
import { getPerson, getPet, type MirrorDb, statement } from '../../electron/desk/mirror';
import type { Person, Pet } from '../../shared/contract';
import type { AdversarialServer, ServerSnapshot } from './adversarial-server';

/** A client with tiny backoffs, so fault-injection tests run fast. */
export function fastClient(origin: string, apiKey = 'key'): ApiClient {
  return createApiClient({ baseUrl: origin, apiKey, backoffBaseMs: 1, backoffCapMs: 5, maxAttempts: 8 });
}

/** Number of rows SQLite changed on this handle so far (to prove a run wrote nothing). */
export function totalChanges(db: MirrorDb): number {
  return (statement(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
}

/**
 * Asserts the mirror holds exactly the adversarial server's state: every pet the server knows with identical
 * fields, listed exactly when public (when `reconciled`), deleted pets marked removed, and every person.
 */
export function expectConverged(
  db: MirrorDb,
  server: AdversarialServer,
  options: { reconciled?: boolean } = {},
): void {
  for (const stored of server.pets.values()) {
    const mirrored = getPet(db, stored.pet.id);
    const isPublic = !stored.hidden && !stored.deleted && stored.pet.show_public;
    if (stored.deleted) {
      if (mirrored && options.reconciled) expect(mirrored.presence).toBe('removed');
      continue;
    }
    if (!isPublic && !mirrored) continue;
    expect(mirrored?.record, `pet ${stored.pet.id}`).toEqual(stored.pet);
    if (options.reconciled) expect(mirrored?.presence).toBe(isPublic ? 'listed' : 'unlisted');
  }
  const petRows = statement(db, `SELECT COUNT(*) AS n FROM pet WHERE presence = 'listed'`).get() as {
    n: number;
  };
  const publicCount = [...server.pets.values()].filter(
    (s) => !s.hidden && !s.deleted && s.pet.show_public,
  ).length;
  if (options.reconciled) expect(petRows.n).toBe(publicCount);
  else expect(petRows.n).toBeGreaterThanOrEqual(publicCount);
  for (const person of server.people.values()) {
    expect(getPerson(db, person.id)?.record, `person ${person.id}`).toEqual(person);
  }
  const peopleRows = statement(db, 'SELECT COUNT(*) AS n FROM person').get() as { n: number };
  expect(peopleRows.n).toBe(server.people.size);
}

/**
 * Asserts the mirror holds what the server held at `snapshot` (taken before a sync began), or a version written
 * since: every pet and person at that version or a later one, pets public then and unchanged since listed, pets
 * deleted or off the list then (and known to the desk) not listed. Changes made while the sync ran may or may not
 * be held yet.
 */
export function expectHolds(db: MirrorDb, snapshot: ServerSnapshot, label: string): void {
  const heldAtOrAfter = (id: string, then: Pet | Person, held: unknown) => {
    const accepted = [then, ...(snapshot.later.get(id) ?? [])];
    expect(
      accepted.some((version) => JSON.stringify(version) === JSON.stringify(held)),
      `${label}: ${id} is held at ${JSON.stringify(held)?.slice(0, 160)}, expected ${JSON.stringify(then).slice(0, 160)} or later`,
    ).toBe(true);
  };
  for (const [id, then] of snapshot.pets) {
    const mirrored = getPet(db, id);
    const changedSince = snapshot.later.has(id) || snapshot.left.has(id);
    if (snapshot.left.has(id)) {
      // Taken off the list while the sync ran (hidden, stamped or not, or deleted): the list the sync proved it holds
      // no longer shows it, so the desk may not have read its last listed version; the removal check finds it.
      continue;
    }
    if (then.deleted) {
      // Deleted off the list: a desk that already held it off the list learns of it by the periodic re-check.
      if (mirrored) expect(mirrored.presence, `${label}: deleted pet ${id}`).not.toBe('listed');
      continue;
    }
    if (!then.public) {
      if (mirrored && !changedSince)
        expect(mirrored.presence, `${label}: hidden pet ${id}`).not.toBe('listed');
      continue;
    }
    expect(mirrored, `${label}: public pet ${id} missing`).toBeDefined();
    heldAtOrAfter(id, then.pet, mirrored?.record);
    if (!changedSince) expect(mirrored?.presence, `${label}: public pet ${id}`).toBe('listed');
  }
  for (const [id, then] of snapshot.people) heldAtOrAfter(id, then, getPerson(db, id)?.record);
}
