import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStaffOperations, type RunningApiServer, startApiServer } from '../../electron/server';
import { localCalendarDate } from '../../electron/server/db/update-clock';
import { feeFromRules } from '../../shared/desk-api/fee-from-rules';
import { call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';
import { strictSchemas } from './response-schemas';

let server: RunningApiServer | undefined;
let clock = Date.parse('2026-03-01T10:00:00.000Z');

async function start(options: { rateLimitPerHour?: number; frozen?: boolean } = {}) {
  clock = Date.parse('2026-03-01T10:00:00.000Z');
  server = await startApiServer({
    dataDir: tempDataDir('shelter-staff-'),
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    rateLimitPerHour: options.rateLimitPerHour,
    now: () => (options.frozen ? clock : clock++),
  });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const createPet = async (api: string, overrides: Record<string, unknown> = {}) => {
  const response = await call(api, '/pets', { method: 'POST', body: newPet(overrides) });
  expect(response.status, response.text).toBe(200);
  return strictSchemas.pet.parse(response.json);
};

describe('staff operations seen through the API', () => {
  it('custom statuses: label matching, id precedence, public flag, inactive statuses', async () => {
    const { apiUrl: api, staff } = await start();
    const quiet = staff.setCustomStatus({ label: 'Quiet Room', isPublic: true });
    const backstage = staff.setCustomStatus({ label: 'Backstage', isPublic: true });
    expect(() => staff.setCustomStatus({ label: 'Adopted', isPublic: true })).toThrow(/built-in/);

    const pet = await createPet(api, { status: 'QUIET room' });
    expect(pet.status).toBe('Quiet Room');
    const both = await createPet(api, { status: 'available', custom_status_id: backstage.id });
    expect(both.status).toBe('Backstage');
    expect((await call(api, '/pets?status=quiet%20room')).json.total).toBe(1);

    staff.setCustomStatus({ id: quiet.id, label: 'Quiet Room', isPublic: false });
    expect((await call(api, '/pets?status=quiet%20room')).json.total).toBe(0);
    const hidden = (await call(api, `/pets/${pet.id}`)).json;
    expect(hidden.status).toBe('Quiet Room');
    expect(Date.parse(hidden.updated_at)).toBeGreaterThan(Date.parse(pet.updated_at));

    staff.setCustomStatus({ id: backstage.id, label: 'Back Stage', isPublic: true, isActive: false });
    expect((await call(api, `/pets/${both.id}`)).json.status).toBe('Back Stage');
    for (const body of [newPet({ status: 'back stage' }), newPet({ custom_status_id: backstage.id })]) {
      const rejected = await call(api, '/pets', { method: 'POST', body });
      expect(rejected.status).toBe(400);
    }
  });

  it('field mappings, templates and veterinarians shape pet writes', async () => {
    const { apiUrl: api, staff } = await start();
    const plain = await createPet(api, { location_found: 'Bridge' });
    expect(plain.custom_field_data).toEqual({});
    staff.setCustomField({ entity: 'pet', fieldKey: 'found_at', label: 'Found at' });
    staff.setCustomField({ entity: 'pet', fieldKey: 'why', label: 'Why surrendered' });
    staff.setFieldMapping('location_found', 'found_at');
    staff.setFieldMapping('reason_for_surrender', 'why');
    const mapped = await createPet(api, {
      location_found: 'Bridge',
      reason_for_surrender: 'Moving',
      custom_field_data: { a: 1 },
    });
    expect(mapped.custom_field_data).toEqual({ a: 1, found_at: 'Bridge', why: 'Moving' });
    const patched = (
      await call(api, `/pets/${mapped.id}`, { method: 'PATCH', body: { custom_field_data: { b: 2 } } })
    ).json;
    expect(patched.custom_field_data).toEqual({ a: 1, b: 2, found_at: 'Bridge', why: 'Moving' });

    const template = staff.setPetTemplate({
      name: 'Kitten intake',
      defaults: {
        description: 'Bottle baby',
        special_needs: ['bottle feeding'],
        show_public: false,
        spayed: false,
      },
    });
    const templated = await createPet(api, { species: 'cat', template_id: template.id, show_public: true });
    expect(templated.description).toBe('Bottle baby');
    expect(templated.special_needs).toEqual(['bottle feeding']);
    expect(templated.show_public).toBe(true);

    const vet = staff.setVeterinarian({ name: 'Dr. Ada Moss', clinic: 'Moss Vets' });
    const treated = await createPet(api, { primary_veterinarian_id: vet.id });
    expect(treated.primary_veterinarian).toBe('Dr. Ada Moss, Moss Vets');
    staff.setVeterinarian({ id: vet.id, name: 'Dr. Ada Moss-Lee', clinic: 'Moss Vets' });
    const renamed = (await call(api, `/pets/${treated.id}`)).json;
    expect(renamed.primary_veterinarian).toBe('Dr. Ada Moss-Lee, Moss Vets');
    expect(renamed.updated_at > treated.updated_at).toBe(true);
  });

  it('fee rules produce global_adoption_fee only without a manual fee', async () => {
    const { apiUrl: api, staff } = await start();
    const before = await createPet(api, { species: 'rabbit', size: 'small' });
    expect(before).not.toHaveProperty('global_adoption_fee');
    staff.setFeeRules([
      { species: 'rabbit', attributeType: 'base', adjustment: 50 },
      { species: 'rabbit', attributeType: 'size', attributeValue: 'small', adjustment: 10 },
      { species: 'rabbit', attributeType: 'spayed', attributeValue: 'false', adjustment: -15 },
      { species: 'rabbit', attributeType: 'color', attributeValue: 'White', adjustment: 5 },
    ]);
    const after = (await call(api, `/pets/${before.id}`)).json;
    expect(after.global_adoption_fee).toBe(45);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(
      (await createPet(api, { species: 'rabbit', size: 'large', spayed: true, color: ['White'] }))
        .global_adoption_fee,
    ).toBe(55);
    expect(await createPet(api, { species: 'rabbit', adoption_fee: '80' })).not.toHaveProperty(
      'global_adoption_fee',
    );
    expect(await createPet(api, { species: 'dog' })).not.toHaveProperty('global_adoption_fee');
    expect((await call(api, '/adoption-fees')).json.fees).toHaveLength(4);
  });

  it('a desk works out from the synced rules the fee the server gives a pet it has not seen', async () => {
    const { apiUrl: api, staff } = await start();
    staff.setFeeRules([
      { species: 'rabbit', attributeType: 'base', adjustment: 50 },
      { species: 'rabbit', attributeType: 'size', attributeValue: 'small', adjustment: 10.25 },
      { species: 'rabbit', attributeType: 'spayed', attributeValue: 'false', adjustment: -15 },
      { species: 'rabbit', attributeType: 'color', attributeValue: 'White', adjustment: 5 },
      { species: 'rabbit', attributeType: 'status', attributeValue: 'available', adjustment: 1 },
      { species: 'cat', attributeType: 'age_category', attributeValue: 'senior', adjustment: 20 },
    ]);
    const { fees } = (await call(api, '/adoption-fees')).json;
    const pets = [
      { species: 'rabbit', size: 'small', status: 'intake' },
      { species: 'rabbit', size: 'large', spayed: true, color: ['Black', 'White'], status: 'Available' },
      { species: 'rabbit', adoption_fee: '80' },
      { species: 'cat', age_category: 'senior' },
      { species: 'cat', age_category: 'adult' },
      { species: 'dog' },
    ];
    for (const fields of pets) {
      const pet = await createPet(api, fields);
      expect(feeFromRules(pet, fees), JSON.stringify(fields)).toBe(pet.global_adoption_fee);
    }
  });

  it('approving an adoption application marks the pet adopted with adopted_on and adopted_by', async () => {
    const { apiUrl: api, staff } = await start();
    const [first, second] = [await createPet(api), await createPet(api)];
    const applied = await call(api, '/people', {
      method: 'POST',
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {
        type: 'adopter',
        name: 'Ada Adopter',
        application: { pet_ids: [first.id, second.id], terms_accepted: true },
      },
    });
    const application = applied.json.application;
    const [summary] = staff.listApplications(applied.json.id);
    expect(summary?.id).toBe(application.id);
    // Each pet with what tells it from another of its name.
    expect(summary?.pets[0]).toMatchObject({
      id: first.id,
      name: first.name,
      species: first.species,
      customId: first.custom_id ?? null,
    });
    // An evening in the Americas, already the next day in UTC (run under TZ=America/Los_Angeles to see it).
    const decided = Date.parse('2026-03-02T05:30:00.000Z');
    clock = decided;
    expect(staff.decideApplication(application.id, 'approved', { petIds: [second.id] }).placedPetIds).toEqual(
      [second.id],
    );
    const adopted = (await call(api, `/pets/${second.id}`)).json;
    expect(adopted.status).toBe('adopted');
    expect(adopted.adopted_by).toBe(applied.json.id);
    expect(adopted.adopted_on).toBe(localCalendarDate(decided));
    // The outcome is that same calendar day, written as the API writes dates (midnight UTC of the day).
    expect(adopted.outcome_date).toBe(`${adopted.adopted_on}T00:00:00.000Z`);
    expect((await call(api, `/pets/${first.id}`)).json.status).toBe('available');
    expect((await call(api, `/people/${applied.json.id}?type=adopter`)).json.status).toBe('active');
    expect(() => staff.decideApplication(application.id, 'denied')).toThrow(/already/);
  });

  it('denying an application leaves the applicant as they are, or makes them inactive or denied as chosen', async () => {
    const { apiUrl: api, staff } = await start();
    const pet = await createPet(api);
    const apply = async (name: string) =>
      (
        await call(api, '/people', {
          method: 'POST',
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: { type: 'adopter', name, application: { pet_ids: [pet.id], terms_accepted: true } },
        })
      ).json as { id: string; application: { id: string } };
    const statusOf = async (person: { id: string }) =>
      (await call(api, `/people/${person.id}?type=adopter`)).json.status;
    const [kept, inactive, denied] = [
      await apply('Kim Kept'),
      await apply('Ian Inactive'),
      await apply('Dee Denied'),
    ];
    staff.decideApplication(kept.application.id, 'denied');
    staff.decideApplication(inactive.application.id, 'denied', { personStatus: 'inactive' });
    staff.decideApplication(denied.application.id, 'denied', { personStatus: 'denied' });
    expect([await statusOf(kept), await statusOf(inactive), await statusOf(denied)]).toEqual([
      'pending',
      'inactive',
      'denied',
    ]);
    // A decision the staff took already is not lowered by a later denial; nor may a denial make anyone pending.
    const again = await apply('Bo Blocked');
    staff.setPersonStatus(again.id, 'blocked');
    staff.decideApplication(again.application.id, 'denied', { personStatus: 'inactive' });
    expect(await statusOf(again)).toBe('blocked');
    const other = await apply('Pat Pending');
    expect(() =>
      staff.decideApplication(other.application.id, 'denied', { personStatus: 'pending' as 'inactive' }),
    ).toThrow();
  });

  it('one approval places a pair adopted together, or refuses whole when one of them is adopted already', async () => {
    const { apiUrl: api, staff } = await start();
    const [first, second, third] = [await createPet(api), await createPet(api), await createPet(api)];
    const apply = async (name: string, petIds: string[]) =>
      (
        await call(api, '/people', {
          method: 'POST',
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: { type: 'adopter', name, application: { pet_ids: petIds, terms_accepted: true } },
        })
      ).json as { id: string; application: { id: string } };
    const pair = await apply('Pat Pair', [first.id, second.id, third.id]);
    const other = await apply('Olive Other', [second.id, third.id]);

    // Chosen out of order: placed in the application's order.
    const approved = staff.decideApplication(pair.application.id, 'approved', {
      petIds: [third.id, first.id],
    });
    expect(approved.placedPetIds).toEqual([first.id, third.id]);
    for (const pet of [first, third]) {
      const placed = (await call(api, `/pets/${pet.id}`)).json;
      expect(placed.status).toBe('adopted');
      expect(placed.adopted_by).toBe(pair.id);
    }
    expect((await call(api, `/pets/${second.id}`)).json.status).toBe('available');
    expect(staff.listApplications(pair.id)[0]?.placedPetIds).toEqual([first.id, third.id]);

    // Third went home with Pat: approving Olive for both refuses, and changes nothing.
    expect(() =>
      staff.decideApplication(other.application.id, 'approved', { petIds: [second.id, third.id] }),
    ).toThrow(/already adopted; leave that pet out/);
    expect((await call(api, `/pets/${second.id}`)).json.status).toBe('available');
    expect(staff.listApplications(other.id)[0]?.status).toBe('submitted');
    expect(() => staff.decideApplication(other.application.id, 'approved', { petIds: [first.id] })).toThrow(
      /is not part of application/,
    );
    expect(() => staff.decideApplication(other.application.id, 'approved', { petIds: [] })).toThrow(
      /Choose the pets/,
    );
    expect(
      staff.decideApplication(other.application.id, 'approved', { petIds: [second.id] }).placedPetIds,
    ).toEqual([second.id]);
  });

  it('an approval made before approvals placed several pets still names its pet after the upgrade', async () => {
    const dataDir = tempDataDir('shelter-placed-');
    server = await startApiServer({ dataDir, writeKey: WRITE_KEY, readKey: READ_KEY });
    const pet = await createPet(server.apiUrl);
    const applied = await call(server.apiUrl, '/people', {
      method: 'POST',
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {
        type: 'adopter',
        name: 'Early Adopter',
        application: { pet_ids: [pet.id], terms_accepted: true },
      },
    });
    server.staff.decideApplication(applied.json.application.id, 'approved');
    await server.close();
    server = undefined;
    // The database as the release before migration 0901 left it: the pet in adopted_pet_id alone.
    const file = path.join(dataDir, 'server.sqlite');
    const before = new Database(file);
    before.exec(`ALTER TABLE applications DROP COLUMN placed_pet_ids;
      DELETE FROM kysely_migration WHERE name = '0901-application-placed-pets'`);
    before.close();

    const { staff, close } = await openStaffOperations(dataDir);
    try {
      expect(staff.listApplications(applied.json.id)[0]?.placedPetIds).toEqual([pet.id]);
    } finally {
      await close();
    }
  });

  it('a pet marked adopted by its status alone is dated that day, as an approval dates it; a date it has stays', async () => {
    const { apiUrl: api } = await start({ frozen: true });
    const pet = await createPet(api, { status: 'available' });
    expect(pet.adopted_on).toBeNull();
    const patch = async (body: Record<string, unknown>) => {
      const response = await call(api, `/pets/${pet.id}`, { method: 'PATCH', body });
      expect(response.status, response.text).toBe(200);
      return strictSchemas.pet.parse(response.json);
    };
    const adoptedDay = localCalendarDate(clock);
    expect((await patch({ status: 'adopted' })).adopted_on).toBe(adoptedDay);
    clock += 3 * 24 * 3600_000;
    expect((await patch({ name: 'Renamed' })).adopted_on).toBe(adoptedDay);
    // Returned, then adopted again by mistake-undo: the adoption keeps its day.
    expect((await patch({ status: 'available' })).adopted_on).toBe(adoptedDay);
    expect((await patch({ status: 'adopted' })).adopted_on).toBe(adoptedDay);
    // Other statuses never date an adoption.
    const other = await createPet(api, { status: 'available' });
    const fostered = await call(api, `/pets/${other.id}`, { method: 'PATCH', body: { status: 'fostered' } });
    expect(fostered.json.adopted_on).toBeNull();
  });

  it('soft delete, person status decisions, person custom field keys, API key lifecycle', async () => {
    const { apiUrl: api, staff } = await start();
    const pet = await createPet(api);
    staff.deletePet(pet.id);
    expect((await call(api, `/pets/${pet.id}`)).status).toBe(404);
    expect((await call(api, '/pets')).json.total).toBe(0);
    expect((await call(api, `/pets/${pet.id}`, { method: 'PATCH', body: { name: 'Ghost' } })).status).toBe(
      404,
    );

    staff.setCustomField({
      entity: 'adopter',
      fieldKey: 'cf_pets_now',
      publicKey: 'current_pets',
      label: 'Current pets',
    });
    const person = (
      await call(api, '/people', {
        method: 'POST',
        body: { type: 'adopter', name: 'Pat', custom_field_data: { current_pets: 2 } },
      })
    ).json;
    expect(person.custom_field_data).toEqual({ cf_pets_now: 2 });
    expect((await call(api, '/people/custom-fields?type=adopter')).json.custom_fields[0].field_key).toBe(
      'current_pets',
    );
    const blocked = staff.setPersonStatus(person.id, 'blocked', 'No-show three times');
    expect(blocked.status).toBe('blocked');
    const fetched = (await call(api, `/people/${person.id}?type=adopter`)).json;
    expect(fetched.status_change_notes).toBe('No-show three times');
    expect(fetched.updated_at > person.updated_at).toBe(true);

    const key = staff.createApiKey('write', 'Front desk');
    expect((await call(api, '/pets', { key: key.key })).status).toBe(200);
    const listed = staff.listApiKeys().find((k) => k.id === key.id);
    expect(listed).toMatchObject({ label: 'Front desk', access: 'write', revokedAt: null });
    expect(listed && 'key_hash' in listed).toBe(false);
    // The staff list shows when the key last opened a request, before the registry has written it to disk.
    expect(listed?.lastUsedAt).not.toBeNull();
    expect(staff.revokeApiKey(key.id)).toBe('revoked');
    expect(staff.revokeApiKey(key.id)).toBe('unknown');
    expect((await call(api, '/pets', { key: key.key })).json.code).toBe('invalid_api_key');
  });
});

describe('server clock', () => {
  it('updated_at stays unique and increasing when writes share a millisecond', async () => {
    const { apiUrl: api } = await start({ frozen: true });
    const stamps: string[] = [];
    for (let i = 0; i < 5; i++) stamps.push((await createPet(api)).updated_at);
    expect(new Set(stamps).size).toBe(5);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('rate windows reset on the hour; idempotency keys expire after 24 hours', async () => {
    const { apiUrl: api } = await start({ rateLimitPerHour: 2, frozen: true });
    await call(api, '/pets');
    await call(api, '/pets');
    expect((await call(api, '/pets')).status).toBe(429);
    clock += 60 * 60 * 1000;
    expect((await call(api, '/pets')).status).toBe(200);

    const key = crypto.randomUUID();
    expect(
      (await call(api, '/pets', { method: 'POST', body: newPet(), headers: { 'idempotency-key': key } }))
        .status,
    ).toBe(200);
    clock += 23 * 60 * 60 * 1000;
    const reused = await call(api, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Other' }),
      headers: { 'idempotency-key': key },
    });
    expect(reused.json.code).toBe('idempotency_key_reused');
    clock += 2 * 60 * 60 * 1000;
    const fresh = await call(api, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Other' }),
      headers: { 'idempotency-key': key },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotency-replay')).toBeNull();
  });
});
