import { describe, expect, it } from 'vitest';
import type { CustomField, Person } from '../../../shared/contract';
import { buildPersonEdit, draftFromPerson } from './person-edit';

const field = (field_key: string): CustomField => ({
  field_key,
  label: field_key,
  section: null,
  field_type: 'text',
  required: false,
  help_text: null,
  options: null,
  hidden: false,
  internal_only: false,
});

const person: Person = {
  id: '6f1c1f3e-0d5e-4a40-9c55-3b8d3c1f0a11',
  type: 'foster',
  name: 'Dana Lee',
  email: 'dana@example.org',
  phone: null,
  address: '1 Elm St',
  status: 'active',
  status_change_notes: null,
  custom_field_data: { cf_yard: true, cf_home_type: 'House', other: 1 },
  tags: [],
  capacity: 2,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('editing a person', () => {
  const fields = [field('has_yard'), field('home_type')];
  const before = draftFromPerson(person, fields, new Map([['has_yard', 'cf_yard']]));

  it('fills custom values under their public keys, whatever key the record stores them under', () => {
    expect(before.custom).toEqual({ has_yard: true, home_type: 'House' });
    expect(before).toMatchObject({ phone: '', capacity: 2, status_change_notes: '' });
  });

  it('sends only what changed; an emptied value as null', () => {
    const after = {
      ...before,
      phone: ' +1 555 0101 ',
      address: '',
      capacity: 3 as const,
      custom: { has_yard: false, home_type: '' },
    };
    expect(buildPersonEdit(before, after, 'foster')).toEqual({
      changes: {
        phone: '+1 555 0101',
        address: null,
        capacity: 3,
        custom_field_data: { has_yard: false, home_type: null },
      },
    });
    expect(buildPersonEdit(before, before, 'foster')).toEqual({ changes: {} });
  });

  it("asks for the shelter's required questions in an edit that changes something, with every other problem", () => {
    const homeType = { ...field('home_type'), label: 'Type of home', required: true };
    const unanswered = draftFromPerson({ ...person, custom_field_data: {} }, [homeType]);
    expect(buildPersonEdit(unanswered, unanswered, 'foster', [homeType])).toEqual({ changes: {} });
    expect(
      buildPersonEdit(unanswered, { ...unanswered, phone: '555-0123', email: 'no-at-sign' }, 'foster', [
        homeType,
      ]),
    ).toEqual({
      errors: {
        email: expect.any(String),
        'custom_field_data.home_type': 'Please answer “Type of home”.',
      },
    });
    const answered = { ...unanswered, phone: '555-0123', custom: { home_type: 'Condo' } };
    expect(buildPersonEdit(unanswered, answered, 'foster', [homeType])).toEqual({
      changes: { phone: '555-0123', custom_field_data: { home_type: 'Condo' } },
    });
  });

  it('answers bad values with sentences at their fields, and sends nothing', () => {
    expect(buildPersonEdit(before, { ...before, name: '  ', email: 'dana@' }, 'foster')).toEqual({
      errors: { name: 'Please enter the name.', email: 'Email address must look like name@example.org.' },
    });
  });
});
