import { describe, expect, it } from 'vitest';
import { openDesk, tempDir } from './helpers';

describe('people on a desk that runs its shelter', () => {
  it('edits a person through the staff operations and the mirror follows; custom fields merge by public key', async () => {
    const core = await openDesk(tempDir());
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const settings = await core.registry.invoke('shelter.settings.get');
    const yard = settings.fields.find((field) => field.fieldKey === 'cf_yard');
    expect(yard?.publicKey).toBe('has_yard');
    const person = (await core.registry.invoke('mirror.people.list', { type: 'adopter', limit: 1 })).items[0];
    if (!person) throw new Error('the demo has adopters');
    const before = person.record.custom_field_data;

    const saved = await core.registry.invoke('people.update', {
      id: person.record.id,
      changes: {
        name: 'Dana Q. Lee',
        phone: '+1 555 0142',
        address: null,
        status_change_notes: 'Prefers calls after 5 pm',
        custom_field_data: { has_yard: true, home_type: 'Farm' },
      },
    });
    expect(saved).toMatchObject({ name: 'Dana Q. Lee', phone: '+1 555 0142', address: null });
    // Stored under the internal keys, the other values kept.
    expect(saved.custom_field_data).toEqual({ ...before, cf_yard: true, cf_home_type: 'Farm' });
    const mirrored = await core.registry.invoke('mirror.people.get', { id: person.record.id });
    expect(mirrored.record).toMatchObject({
      name: 'Dana Q. Lee',
      status_change_notes: 'Prefers calls after 5 pm',
    });
    const found = await core.registry.invoke('mirror.people.list', { search: '555 0142' });
    expect(found.items.map((item) => item.record.name)).toContain('Dana Q. Lee');

    // A null custom value removes the field; bad input changes nothing.
    const removed = await core.registry.invoke('people.update', {
      id: person.record.id,
      changes: { custom_field_data: { has_yard: null } },
    });
    expect(removed.custom_field_data).not.toHaveProperty('cf_yard');
    await expect(
      core.registry.invoke('people.update', { id: person.record.id, changes: { capacity: 3 } }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: 'Only fosters have a capacity.' });
    await expect(
      core.registry.invoke('people.update', { id: person.record.id, changes: { email: 'not-an-email' } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await core.registry.invoke('mirror.people.get', { id: person.record.id })).record.name).toBe(
      'Dana Q. Lee',
    );
  }, 60_000);

  it("lists a person's and a pet's applications with their decisions", async () => {
    const core = await openDesk(tempDir());
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const all = await core.registry.invoke('shelter.applications.list');
    const approved = all.find((application) => application.status === 'approved');
    if (!approved) throw new Error('the demo has an approved application');
    const ofPerson = await core.registry.invoke('people.applications', { id: approved.personId });
    expect(ofPerson.map((application) => application.id)).toContain(approved.id);
    const entry = ofPerson.find((application) => application.id === approved.id);
    expect(entry).toMatchObject({
      status: 'approved',
      decisionsKnown: true,
      personName: approved.personName,
    });
    expect(entry?.pets[0]?.name).toBe(approved.pets[0]?.name);
    const pet = approved.pets[0]?.id ?? '';
    const ofPet = await core.registry.invoke('pets.applications', { id: pet });
    expect(ofPet.map((application) => application.id)).toContain(approved.id);
    expect(ofPet.every((application) => application.pets.some((each) => each.id === pet))).toBe(true);
  }, 60_000);

  it('says where people are changed when the desk is not the shelter', async () => {
    const core = await openDesk(tempDir());
    await expect(
      core.registry.invoke('people.update', {
        id: '00000000-0000-4000-8000-000000000000',
        changes: { name: 'X' },
      }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/shelter's own system/) });
    expect(
      await core.registry.invoke('people.applications', { id: '00000000-0000-4000-8000-000000000000' }),
    ).toEqual([]);
  });
});
