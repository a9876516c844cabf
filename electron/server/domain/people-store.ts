import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  FieldError,
  PeopleListQuery,
  Person,
  PersonCreate,
  PersonCreateResponse,
} from '../../../shared/contract';
import { PreparedQueries, queryBuilder, slot } from '../db/prepared-queries';
import type { CustomFieldRow, PersonRow } from '../db/rows';
import type { UpdateClock } from '../db/update-clock';
import { validationError } from './api-error';
import { queryPage } from './paging';
import type { PetStore } from './pet-store';
import {
  matchCondition,
  phoneDigits,
  phoneMatchCondition,
  phoneMatchValues,
  planSearch,
  type SearchTarget,
  type SearchVocabulary,
  searchOrder,
  searchShape,
  searchValues,
  shortWordConditions,
} from './search';

const PEOPLE_SEARCH: SearchTarget = {
  table: 'people',
  fts: 'people_fts',
  weights: [10, 5, 3, 1],
  columns: ['name', 'email', 'phone', 'address'],
};

export interface PeoplePage {
  rows: PersonRow[];
  total: number;
}

/** A person row as the Person response object. */
export function personResponse(row: PersonRow): Person {
  return {
    id: row.id,
    type: row.type as Person['type'],
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    status: row.status as Person['status'],
    status_change_notes: row.status_change_notes,
    custom_field_data: JSON.parse(row.custom_field_data) as Record<string, unknown>,
    tags: JSON.parse(row.tags) as string[],
    capacity: row.capacity,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * People of the embedded server: creates (with applications and surrenders in the same transaction as the
 * person), lists with fuzzy search, fetches. Synchronous, for use inside one SQLite transaction.
 */
export class PeopleStore {
  private readonly byId: Database.Statement<[string]>;
  private readonly queries: PreparedQueries;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly clock: UpdateClock,
    private readonly pets: PetStore,
    readonly vocabulary: SearchVocabulary,
    private readonly now: () => number,
  ) {
    this.byId = sqlite.prepare('SELECT * FROM people WHERE id = ?');
    this.queries = new PreparedQueries(sqlite);
  }

  /** A person by UUID (any case). */
  get(id: string): PersonRow | undefined {
    return this.byId.get(id.toLowerCase()) as PersonRow | undefined;
  }

  /**
   * Creates a person from a validated body: custom field keys normalised from public to internal keys,
   * `capacity` kept only for fosters, application or surrendered pets stored atomically with the person.
   */
  create(input: PersonCreate): PersonCreateResponse {
    const errors: FieldError[] = [];
    const application = 'application' in input ? input.application : undefined;
    if (application && input.status !== undefined && input.status !== 'pending') {
      errors.push({ field: 'status', message: 'must be pending (or left out) when an application is sent' });
    }
    if (application) {
      application.pet_ids.forEach((petId, index) => {
        if (!this.pets.get(petId))
          errors.push({ field: `application.pet_ids[${index}]`, message: 'is not a known pet' });
      });
    }
    const surrendered = 'pets' in input ? (input.pets ?? []) : [];
    surrendered.forEach((item, index) => {
      if ('pet_id' in item && !this.pets.get(item.pet_id)) {
        errors.push({ field: `pets[${index}].pet_id`, message: 'is not a known pet' });
      }
    });
    if (errors.length > 0) throw validationError(errors);

    const stamp = this.clock.next('people');
    const row: Omit<PersonRow, 'seq'> = {
      id: randomUUID(),
      type: input.type,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      address: input.address ?? null,
      status: input.status ?? (application ? 'pending' : 'active'),
      status_change_notes: input.status_change_notes ?? null,
      custom_field_data: JSON.stringify(
        this.normaliseCustomFields(input.type, input.custom_field_data ?? {}),
      ),
      tags: '[]',
      capacity: input.type === 'foster' ? (input.capacity ?? null) : null,
      created_at: stamp,
      updated_at: stamp,
    };
    this.sqlite
      .prepare(
        `INSERT INTO people (id, type, name, email, phone, address, status, status_change_notes, custom_field_data,
          tags, capacity, created_at, updated_at)
         VALUES (@id, @type, @name, @email, @phone, @address, @status, @status_change_notes, @custom_field_data,
          @tags, @capacity, @created_at, @updated_at)`,
      )
      .run(row);
    this.vocabulary.add(row.name, row.email, row.phone, row.address);

    for (const [index, item] of surrendered.entries()) {
      let petId: string;
      if ('create' in item) {
        const create =
          item.reason !== undefined && item.create.reason_for_surrender === undefined
            ? { ...item.create, reason_for_surrender: item.reason }
            : item.create;
        try {
          petId = this.pets.create(create).id;
        } catch (error) {
          if (error instanceof Error && 'extras' in error) {
            const fieldErrors = (error as { extras: { errors?: FieldError[] } }).extras.errors ?? [];
            throw validationError(
              fieldErrors.map((e) => ({ field: `pets[${index}].create.${e.field}`, message: e.message })),
            );
          }
          throw error;
        }
      } else {
        petId = item.pet_id.toLowerCase();
      }
      this.sqlite
        .prepare(
          `INSERT OR REPLACE INTO surrendered_pets (person_id, pet_id, reason, urgency, notes, custom_data, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          row.id,
          petId,
          item.reason ?? null,
          item.urgency ?? null,
          item.notes ?? null,
          item.custom_data === undefined ? null : JSON.stringify(item.custom_data),
          stamp,
        );
    }

    const person = personResponse(this.get(row.id) as PersonRow);
    if (!application) return person;
    const submittedAt = Math.floor(this.now());
    const applicationId = randomUUID();
    const petIds = application.pet_ids.map((id) => id.toLowerCase());
    this.sqlite
      .prepare('INSERT INTO applications (id, person_id, kind, pet_ids, submitted_at) VALUES (?, ?, ?, ?, ?)')
      .run(applicationId, row.id, input.type, JSON.stringify(petIds), submittedAt);
    return {
      ...person,
      application: { id: applicationId, pet_ids: petIds, submitted_at: new Date(submittedAt).toISOString() },
    };
  }

  /**
   * One page of people of a type, ordered by `updated_at`, or by relevance when searching. The query is
   * composed with kysely from the filters present, compiled once per shape and run as a prepared statement.
   */
  list(query: PeopleListQuery): PeoplePage {
    // A phone number typed any way (`+1 555 0999`, `555-0999`, `5550999`) is compared by its digits.
    const digits = query.search === undefined ? undefined : phoneDigits(query.search);
    const plan = query.search === undefined || digits ? null : planSearch(query.search, this.vocabulary);
    const hasStatus = query.status !== undefined;
    const hasSince = query.updated_since !== undefined;
    const hasDigits = digits !== undefined;
    const shape = `${searchShape(plan)}|${hasStatus}|${hasSince}|${hasDigits}`;
    const build = () => {
      let q = queryBuilder
        .selectFrom('people as p')
        .$if(plan?.match != null, (qb) =>
          qb.innerJoin('people_fts as f', 'f.rowid', 'p.seq').where(matchCondition(PEOPLE_SEARCH)),
        )
        .where('p.type', '=', slot('type'))
        .$if(hasDigits, (qb) => qb.where(phoneMatchCondition('p.phone')))
        .$if(hasStatus, (qb) => qb.where('p.status', '=', slot('status')))
        .$if(hasSince, (qb) => qb.where('p.updated_at', '>=', slot<number>('since')));
      for (const condition of shortWordConditions(plan, PEOPLE_SEARCH)) q = q.where(condition);
      return q;
    };
    const values = {
      ...searchValues(plan),
      ...phoneMatchValues(digits),
      type: query.type,
      status: query.status,
      since: hasSince ? Math.ceil(Date.parse(query.updated_since as string)) : undefined,
      limit: query.limit,
      offset: query.offset,
    };
    const page = queryPage<PersonRow>(
      this.queries,
      shape,
      {
        rows: () => build().selectAll('p').orderBy(searchOrder(plan, PEOPLE_SEARCH)),
        count: () => build().select((eb) => eb.fn.countAll<number>().as('total')),
      },
      values,
    );
    return { rows: page.items, total: page.total };
  }

  /** Writes columns of a person with a fresh `updated_at` (staff decisions). */
  writeColumns(existing: PersonRow, columns: Partial<Omit<PersonRow, 'seq' | 'id'>>): PersonRow {
    const changes = { ...columns, updated_at: this.clock.next('people') };
    const names = Object.keys(changes);
    this.sqlite
      .prepare(`UPDATE people SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE seq = @seq`)
      .run({ ...changes, seq: existing.seq });
    this.vocabulary.add(columns.name, columns.email, columns.phone, columns.address);
    return this.get(existing.id) as PersonRow;
  }

  /** Custom field data with the shelter's public field keys turned into its internal ones (others kept). */
  normaliseCustomFields(type: string, data: Record<string, unknown>): Record<string, unknown> {
    const fields = this.sqlite
      .prepare('SELECT field_key, public_key FROM custom_fields WHERE entity = ? AND public_key IS NOT NULL')
      .all(type) as Array<Pick<CustomFieldRow, 'field_key' | 'public_key'>>;
    const toInternal = new Map(fields.map((field) => [field.public_key as string, field.field_key]));
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [toInternal.get(key) ?? key, value]),
    );
  }
}
