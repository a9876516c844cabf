import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../shared/contract';
import { buildPersonRequest, emptyPersonDraft, readKeptPersonDraft } from './person-form-state';

const PET = '3f1c2a4e-0b5d-4c6e-8f70-112233445566';

describe('person sign-up form', () => {
  it('names the empty name and the bad email', () => {
    const result = buildPersonRequest({ ...emptyPersonDraft(), name: ' ', email: 'not-an-email' });
    expect(result).toEqual({
      ok: false,
      errors: { name: 'must not be empty', email: 'must look like name@example.org' },
    });
  });

  it('needs pets and accepted terms for an application', () => {
    const result = buildPersonRequest({ ...emptyPersonDraft(), name: 'Ana', withApplication: true });
    expect(result).toEqual({
      ok: false,
      errors: { application: 'choose at least one pet', terms: 'the applicant must accept the terms' },
    });
  });

  it('refuses an application while the shelter has no agreement, ticked or not', () => {
    const draft = {
      ...emptyPersonDraft(),
      name: 'Ana',
      withApplication: true,
      petIds: [PET],
      termsAccepted: true,
    };
    expect(buildPersonRequest(draft, [], { agreementUnwritten: true })).toEqual({
      ok: false,
      errors: { terms: 'The shelter has no agreement to accept yet: save the sign-up without applying.' },
    });
    expect(
      buildPersonRequest({ ...draft, withApplication: false }, [], { agreementUnwritten: true }).ok,
    ).toBe(true);
  });

  it('builds an adopter request with an application', () => {
    const result = buildPersonRequest({
      ...emptyPersonDraft(),
      name: 'Ana Ruiz',
      email: 'ana@example.org',
      withApplication: true,
      petIds: [PET],
      termsAccepted: true,
      custom_field_data: { home_type: 'House', landlord_contact: '' },
    });
    expect(result).toEqual({
      ok: true,
      request: {
        type: 'adopter',
        name: 'Ana Ruiz',
        email: 'ana@example.org',
        status: 'pending',
        custom_field_data: { home_type: 'House' },
        application: { pet_ids: [PET], terms_accepted: true },
      },
    });
  });

  it('links surrendered pets and leaves applications out of other types', () => {
    const result = buildPersonRequest({
      ...emptyPersonDraft('surrender'),
      name: 'Sam',
      petIds: [PET],
      reason: 'Moving abroad',
      withApplication: true,
    });
    expect(result).toEqual({
      ok: true,
      request: {
        type: 'surrender',
        name: 'Sam',
        status: 'pending',
        pets: [{ pet_id: PET, reason: 'Moving abroad' }],
      },
    });
  });

  it("asks an adopter the shelter's questions marked required, after the contract's", () => {
    const home = {
      field_key: 'home_type',
      label: 'Type of home',
      field_type: 'select',
      required: true,
      hidden: false,
    } as CustomField;
    const result = buildPersonRequest({ ...emptyPersonDraft(), name: '' }, [home]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.entries(result.errors)).toEqual([
      ['name', 'must not be empty'],
      ['custom_field_data.home_type', 'Please answer “Type of home”.'],
    ]);
    const answered = { ...emptyPersonDraft(), name: 'Ana', custom_field_data: { home_type: 'House' } };
    expect(buildPersonRequest(answered, [home]).ok).toBe(true);
  });

  it('refuses a capacity that is not a number', () => {
    const result = buildPersonRequest({ ...emptyPersonDraft('foster'), name: 'Flo', capacity: 'two' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.capacity).toBeDefined();
  });
});

describe('a sign-up kept on the desk through a reload', () => {
  it('is read only with a kind of person the form knows', () => {
    expect(
      readKeptPersonDraft({ type: 'foster', name: 'Aroha', capacity: '2', termsAccepted: 'no' }),
    ).toEqual({
      ...emptyPersonDraft('foster'),
      name: 'Aroha',
      capacity: '2',
    });
    expect(readKeptPersonDraft({ type: 'owner', name: 'Aroha' })).toBeUndefined();
  });
});
