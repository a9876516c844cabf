import { afterEach, describe, expect, it } from 'vitest';
import type { CustomField } from '../../../shared/contract';
import { yearsAndMonthsInWords } from '../../../shared/wording/age';
import { ageOn, calendarDaysAfter, formatCalendarDate, localToday } from '../lib/dates';
import {
  ageGroupFieldNote,
  birthdayOnDateChange,
  birthdayProblem,
  buildPetCreate,
  buildPetUpdate,
  draftFromPet,
  emptyPetDraft,
  INTAKE_DAYS_AHEAD,
  INTAKE_YEARS_BACK,
  intakeAheadNote,
  messagesOnLeaving,
  numberFieldMessage,
} from './pet-form';

const pet = {
  name: 'Thumper',
  species: 'dog',
  age_category: 'young',
  sex: 'male',
  size: 'medium',
  status: 'available',
  health: 'good',
  description: 'Loves fetch.',
  breed: ['Shih Tzu'],
  color: ['Black'],
  microchip_id: '985092693177936',
  show_public: true,
  spayed: true,
  good_with: ['cats'],
  bad_with: [],
  temperaments: [],
  custom_field_data: { kennel: 'B2' },
  intake_date: '2026-05-14T00:00:00.000Z',
};

// The renderer has no Node types; the tests run in Node, whose TZ variable sets the zone of `Date`.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const originalZone = env.TZ;
afterEach(() => {
  env.TZ = originalZone;
});

/** A new cat's answers to the required choices. */
const basics = {
  name: 'Biscuit',
  species: 'cat',
  age_category: 'adult',
  sex: 'female',
  size: 'small',
  health: 'good',
};

describe('new pet form', () => {
  // West and east of UTC: late afternoon in California is already tomorrow in UTC, early morning in Auckland
  // still yesterday.
  it.each(['America/Los_Angeles', 'Pacific/Auckland'])(
    "dates a new intake the desk's local today in %s, not UTC's",
    (zone) => {
      env.TZ = zone;
      for (const hour of [0, 6, 17, 23]) {
        expect(emptyPetDraft(new Date(2026, 4, 14, hour, 30)).intake_date).toBe('2026-05-14');
      }
    },
  );

  it('names every missing required field', () => {
    const result = buildPetCreate({ ...emptyPetDraft(), name: '  ' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      'age_category',
      'health',
      'name',
      'sex',
      'size',
      'species',
    ]);
    expect(result.errors.species).toBe('is required');
  });

  it("asks for the shelter's own fields marked required, after the contract's", () => {
    const kennel = {
      field_key: 'kennel',
      label: 'Kennel',
      field_type: 'text',
      required: true,
      hidden: false,
    } as CustomField;
    const result = buildPetCreate({ ...emptyPetDraft(), ...basics, name: '' }, [kennel]);
    expect(result).toEqual({
      ok: false,
      errors: { name: 'is required', 'custom_field_data.kennel': 'Please answer “Kennel”.' },
    });
    expect(
      buildPetCreate({ ...emptyPetDraft(), ...basics, custom_field_data: { kennel: 'B2' } }, [kennel]).ok,
    ).toBe(true);
    // An edit is asked for them too, once it changes anything.
    const unanswered = { ...emptyPetDraft(), ...basics };
    expect(buildPetUpdate(unanswered, unanswered, [kennel])).toEqual({ ok: 'unchanged' });
    expect(buildPetUpdate(unanswered, { ...unanswered, breed: 'Tabby' }, [kennel])).toEqual({
      ok: false,
      errors: { 'custom_field_data.kennel': 'Please answer “Kennel”.' },
    });
  });

  it('builds a body the contract accepts, lists split and empty text left out', () => {
    const result = buildPetCreate({
      ...emptyPetDraft(new Date('2026-11-21T10:00:00Z')),
      ...basics,
      breed: 'Tabby,  Domestic shorthair ,',
      custom_field_data: { kennel: 'A1', rabies_tag: '' },
    });
    expect(result).toEqual({
      ok: true,
      fields: {
        name: 'Biscuit',
        species: 'cat',
        age_category: 'adult',
        sex: 'female',
        size: 'small',
        status: 'intake',
        health: 'good',
        breed: ['Tabby', 'Domestic shorthair'],
        intake_date: '2026-11-21T00:00:00Z',
        show_public: false,
        spayed: false,
        custom_field_data: { kennel: 'A1' },
      },
    });
  });
});

describe('numbers typed in text fields', () => {
  it('keeps a microchip typed in groups as the scanner reads it, digits only', () => {
    const result = buildPetCreate({ ...emptyPetDraft(), ...basics, microchip_id: ' 985 112-233 445 566 ' });
    expect(result.ok && result.fields.microchip_id).toBe('985112233445566');
  });

  it('takes an amount, whole ages and a weight with its unit', () => {
    for (const [adoption_fee, age_years, age_months, weight] of [
      ['150', '3', '4', '12 kg'],
      ['150.00', '12', '8', '12,5kg'],
      ['99,5', '0', '0', '11.2 lbs.'],
    ] as const) {
      const draft = { ...emptyPetDraft(), ...basics, adoption_fee, age_years, age_months, weight };
      expect(buildPetCreate(draft).ok, `${adoption_fee} ${age_years} ${age_months} ${weight}`).toBe(true);
    }
  });

  it('takes months beside years only as 0 to 11, and months alone as any number; an edit leaving them is not asked', () => {
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, age_years: '0', age_months: '15' })).toEqual({
      ok: false,
      errors: { age_months: 'must be 0 to 11 beside the years: 0 years 15 months is 1 year 3 months' },
    });
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, age_years: '2', age_months: '11' }).ok).toBe(true);
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, age_months: '18' }).ok).toBe(true);
    const held = { ...emptyPetDraft(), ...basics, age_years: '1', age_months: '14' };
    expect(buildPetUpdate(held, { ...held, breed: 'Tabby' }).ok).toBe(true);
    expect(buildPetUpdate(held, { ...held, age_months: '13' })).toMatchObject({
      ok: false,
      errors: { age_months: 'must be 0 to 11 beside the years: 1 year 13 months is 2 years 1 month' },
    });
  });

  it('refuses an age the birthday contradicts, at the precision typed; an edit leaving all three is not asked', () => {
    const today = localToday();
    const born = calendarDaysAfter(today, -(5 * 365 + 40));
    const age = ageOn(born) as { years: number; months: number };
    const withBirthday = { ...emptyPetDraft(), ...basics, age_birthday: born };
    const says = `does not match the birthday (${formatCalendarDate(born)}), which makes it ${yearsAndMonthsInWords(age.years, age.months)}`;
    expect(buildPetCreate({ ...withBirthday, age_years: '1' })).toEqual({
      ok: false,
      errors: {
        age_years: expect.stringContaining(
          `${says} today: give that age, or leave it empty and the birthday keeps it up to date`,
        ),
      },
    });
    expect(buildPetCreate({ ...withBirthday, age_months: '7' })).toMatchObject({
      ok: false,
      errors: { age_months: expect.stringContaining(says) },
    });
    // Whole years typed alone, or years and months within a month: the same age.
    expect(buildPetCreate({ ...withBirthday, age_years: String(age.years) }).ok).toBe(true);
    const total = age.years * 12 + age.months + 1;
    const monthLater = { age_years: String(Math.floor(total / 12)), age_months: String(total % 12) };
    expect(buildPetCreate({ ...withBirthday, ...monthLater }).ok).toBe(true);
    expect(buildPetCreate({ ...withBirthday, age_years: '0', age_months: '0' }).ok).toBe(true);
    // An age typed long ago beside the birthday is left alone by an edit of something else, not by one of the age.
    const held = { ...withBirthday, age_years: '1' };
    expect(buildPetUpdate(held, { ...held, breed: 'Tabby' }).ok).toBe(true);
    expect(buildPetUpdate(held, { ...held, age_years: '2' }).ok).toBe(false);
    expect(buildPetUpdate(held, { ...held, age_years: String(age.years) }).ok).toBe(true);
  });

  it('says at each field what it wants instead of sending a word for a number', () => {
    const draft = {
      ...emptyPetDraft(),
      ...basics,
      adoption_fee: 'abc',
      age_years: 'three',
      age_months: '4.5',
      weight: 'twelve',
    };
    const result = buildPetCreate(draft);
    expect(result).toEqual({
      ok: false,
      errors: {
        adoption_fee: 'must be an amount, such as 150 or 150.00 (leave it empty to use the fee rules)',
        age_years: 'must be a whole number, such as 3',
        age_months: 'must be a whole number, such as 4',
        weight: 'must start with a number, such as 12 kg or 12.5',
      },
    });
    // The currency sign staff type is not part of the amount.
    for (const [typed, sent] of [
      ['$150', '150'],
      ['€ 150,50', '150,50'],
      // Thousands as staff group them.
      ['$1,200', '1200'],
      ['1,200.00', '1200.00'],
      ['€ 1.200,50', '1200,50'],
      ['1 200', '1200'],
    ]) {
      const typedFee = buildPetCreate({ ...emptyPetDraft(), ...basics, adoption_fee: typed as string });
      expect(typedFee).toMatchObject({ ok: true, fields: { adoption_fee: sent } });
    }
    // A weight is written as the desk writes weights: a decimal point, a space before the unit.
    for (const [typed, sent] of [
      ['4,5 kg', '4.5 kg'],
      ['28kg', '28 kg'],
      ['12.5', '12.5'],
      [' 30 lbs ', '30 lbs'],
      ['1,200 g', '1,200 g'],
    ]) {
      const typedWeight = buildPetCreate({ ...emptyPetDraft(), ...basics, weight: typed as string });
      expect(typedWeight).toMatchObject({ ok: true, fields: { weight: sent } });
    }
    // Digits grouped some other way are no amount the desk can be sure of.
    for (const typed of ['1,2345', '12,000,0', '1.200.5']) {
      expect(buildPetCreate({ ...emptyPetDraft(), ...basics, adoption_fee: typed }).ok, typed).toBe(false);
    }
    // An edit checks what it sends: a fee the server already holds as text does not block a status change.
    const original = draftFromPet({ ...pet, adoption_fee: 'Call us' });
    expect(buildPetUpdate(original, { ...original, status: 'hold' }).ok).toBe(true);
    expect(buildPetUpdate(original, { ...original, adoption_fee: 'free' }).ok).toBe(false);
  });

  it('says a number typed below zero cannot be, rather than that it is no number', () => {
    const draft = { ...emptyPetDraft(), ...basics, adoption_fee: '-$20', age_years: '-2', weight: '-5 kg' };
    expect(buildPetCreate(draft)).toEqual({
      ok: false,
      errors: {
        adoption_fee: 'cannot be below zero',
        age_years: 'cannot be below zero',
        weight: 'cannot be below zero',
      },
    });
  });

  it('gives a number field, as it is left, the message Save would give', () => {
    for (const [field, typed] of [
      ['adoption_fee', '-$20'],
      ['adoption_fee', 'free'],
      ['adoption_fee', '$1,200'],
      ['weight', 'heavy'],
      ['weight', ' 12.5 kg '],
      ['age_years', 'three'],
      ['age_months', ''],
    ] as const) {
      const saved = buildPetCreate({ ...emptyPetDraft(), ...basics, [field]: typed });
      const atSave = saved.ok ? undefined : saved.errors[field];
      expect(numberFieldMessage(field, typed), `${field} ${typed}`).toBe(atSave);
    }
    expect(numberFieldMessage('weight', 'heavy')).toBe('must start with a number, such as 12 kg or 12.5');
    expect(numberFieldMessage('adoption_fee', '$1,200')).toBeUndefined();
  });

  it('says the months rule as either age field is left, the message Save would give, and takes it away once mended', () => {
    const draft = { ...emptyPetDraft(), ...basics, age_years: '0', age_months: '15' };
    const saved = buildPetCreate(draft);
    const atSave = saved.ok ? undefined : saved.errors.age_months;
    expect(atSave).toBeDefined();
    expect(messagesOnLeaving('age_months', draft)).toEqual({ age_months: atSave });
    expect(messagesOnLeaving('age_years', draft)).toEqual({ age_years: undefined, age_months: atSave });
    expect(messagesOnLeaving('age_years', { ...draft, age_years: '' })).toEqual({
      age_years: undefined,
      age_months: undefined,
    });
    expect(messagesOnLeaving('age_months', { ...draft, age_months: 'x' })).toEqual({
      age_months: 'must be a whole number, such as 4',
    });
    expect(messagesOnLeaving('weight', { ...draft, weight: 'heavy' })).toEqual({
      weight: 'must start with a number, such as 12 kg or 12.5',
    });
  });

  it('leaves an edit’s number field alone while it holds what the server sent, as Save does', () => {
    const original = draftFromPet({ ...pet, adoption_fee: 'Free', weight: '12-15 lbs' });
    for (const field of ['adoption_fee', 'weight'] as const) {
      expect(buildPetUpdate(original, { ...original, status: 'hold' }).ok).toBe(true);
      expect(numberFieldMessage(field, original[field], original[field])).toBeUndefined();
      const changed = { ...original, [field]: 'lots' };
      const saved = buildPetUpdate(original, changed);
      expect(saved.ok).toBe(false);
      expect(numberFieldMessage(field, 'lots', original[field])).toBe(
        saved.ok === false ? saved.errors[field] : undefined,
      );
    }
  });
});

describe('dates typed so that they name no day', () => {
  const vaccinated = {
    field_key: 'vaccinated_on',
    label: 'Vaccinated on',
    field_type: 'date',
    required: false,
    hidden: false,
  } as CustomField;

  it('refuses a new pet whose intake date, birthday or own date names no day, instead of sending it without', () => {
    const result = buildPetCreate(
      {
        ...emptyPetDraft(),
        ...basics,
        intake_date: '31/02/2026',
        age_birthday: 'last spring',
        custom_field_data: { vaccinated_on: '28.13.2026' },
      },
      [vaccinated],
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        intake_date: '“31/02/2026” is not a day: February 2026 has 28 days',
        age_birthday: expect.stringMatching(
          /^“last spring” is not a date the desk can read: type it like .+ \(in this desk’s order\), or 2026-11-28$/,
        ),
        'custom_field_data.vaccinated_on': 'Vaccinated on “28.13.2026” is not a day: a year has 12 months.',
      },
    });
  });

  it('refuses a birthday after today, and takes one today', () => {
    const today = localToday();
    const [year, month, day] = today.split('-').map(Number) as [number, number, number];
    const tomorrow = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, age_birthday: tomorrow })).toEqual({
      ok: false,
      errors: { age_birthday: `A birthday cannot be after today (${formatCalendarDate(today)})` },
    });
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, age_birthday: today }).ok).toBe(true);
    // An intake may be booked for a day ahead.
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: tomorrow }).ok).toBe(true);
  });

  it('refuses an intake date more than 90 days ahead (a mistyped year), and leaves one an edit did not change', () => {
    const today = localToday();
    const latest = calendarDaysAfter(today, INTAKE_DAYS_AHEAD);
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: latest }).ok).toBe(true);
    const mistyped = `${Number(today.slice(0, 4)) + 36}${today.slice(4)}`;
    for (const typed of [calendarDaysAfter(latest, 1), mistyped]) {
      expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: typed })).toEqual({
        ok: false,
        errors: {
          intake_date: `${formatCalendarDate(typed)} is more than 90 days ahead; check the year (an intake can be booked up to ${formatCalendarDate(latest)})`,
        },
      });
    }
    const held = draftFromPet({ ...pet, intake_date: `${mistyped}T00:00:00Z` });
    expect(buildPetUpdate(held, { ...held, status: 'hold' }).ok).toBe(true);
  });

  it('refuses an intake date more than 30 years back ("3/4/62" read as 1962), and leaves one an edit did not change', () => {
    const thisYear = Number(localToday().slice(0, 4));
    const earliest = `${thisYear - INTAKE_YEARS_BACK}-01-01`;
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: earliest }).ok).toBe(true);
    const slipped = `${thisYear - INTAKE_YEARS_BACK - 1}-12-31`;
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: slipped })).toEqual({
      ok: false,
      errors: { intake_date: `${formatCalendarDate(slipped)} is more than 30 years ago; check the year` },
    });
    const held = draftFromPet({ ...pet, intake_date: `${slipped}T00:00:00Z` });
    expect(buildPetUpdate(held, { ...held, status: 'hold' }).ok).toBe(true);
  });

  it('says why a birthday cannot be as soon as it is given: after today, or after the intake date', () => {
    const today = '2026-12-05';
    expect(birthdayProblem({ age_birthday: '2027-01-15', intake_date: '2026-12-03' }, today)).toBe(
      `A birthday cannot be after today (${formatCalendarDate(today)})`,
    );
    expect(birthdayProblem({ age_birthday: '2026-12-04', intake_date: '2026-12-03' }, today)).toBe(
      `A birthday cannot be after the intake date (${formatCalendarDate('2026-12-03')})`,
    );
    expect(birthdayProblem({ age_birthday: '2024-03-15', intake_date: '2026-12-03' }, today)).toBeUndefined();
    expect(birthdayProblem({ age_birthday: today, intake_date: '' }, today)).toBeUndefined();
    // No day given, or text that names none (the date field says so itself).
    expect(birthdayProblem({ age_birthday: '', intake_date: '2026-12-03' }, today)).toBeUndefined();
    expect(birthdayProblem({ age_birthday: '2026-02-30', intake_date: '' }, today)).toBeUndefined();
  });

  it('says a birthday’s problem as the dates change, and leaves an edit’s untouched dates and unread text alone', () => {
    const draft = { ...emptyPetDraft(), ...basics, intake_date: '2026-03-04', age_birthday: '2024-05-01' };
    expect(birthdayOnDateChange(draft, { ...draft, age_birthday: '2099-01-15' })).toEqual({
      message: `A birthday cannot be after today (${formatCalendarDate(localToday())})`,
    });
    expect(birthdayOnDateChange(draft, { ...draft, intake_date: '2024-01-02' })).toEqual({
      message: `A birthday cannot be after the intake date (${formatCalendarDate('2024-01-02')})`,
    });
    // Fixed: the message is taken away.
    expect(birthdayOnDateChange(draft, { ...draft, age_birthday: '2024-05-02' })).toEqual({
      message: undefined,
    });
    // Another field, or a birthday that names no day (the field and Save say that themselves): left as it is.
    expect(birthdayOnDateChange(draft, { ...draft, name: 'Other' })).toBe('unchanged');
    expect(birthdayOnDateChange(draft, { ...draft, age_birthday: 'last spring' })).toBe('unchanged');
    // An edit of a pet whose stored dates disagree says nothing until it touches a date.
    const held = { ...draft, age_birthday: '2026-05-01' };
    expect(birthdayOnDateChange(held, { ...held, name: 'Other' }, held)).toBe('unchanged');
  });

  it('refuses a birthday after the intake date, and leaves alone an edit that changes neither', () => {
    const born = { ...emptyPetDraft(), ...basics, intake_date: '2026-03-04', age_birthday: '2026-05-01' };
    expect(buildPetCreate(born)).toEqual({
      ok: false,
      errors: {
        age_birthday: `A birthday cannot be after the intake date (${formatCalendarDate('2026-03-04')})`,
      },
    });
    expect(buildPetCreate({ ...born, age_birthday: '2026-03-04' }).ok).toBe(true);
    const held = draftFromPet({
      ...pet,
      intake_date: '2026-03-04T00:00:00Z',
      age_birthday: '2026-05-01T00:00:00Z',
    });
    expect(buildPetUpdate(held, { ...held, status: 'hold' }).ok).toBe(true);
  });

  it('sends a date still as typed (the field not yet left) as the day it names', () => {
    const result = buildPetCreate(
      {
        ...emptyPetDraft(),
        ...basics,
        intake_date: '28/11/2026',
        custom_field_data: { vaccinated_on: '14 May 2026' },
      },
      [vaccinated],
    );
    expect(result.ok).toBe(true);
    if (result.ok !== true) return;
    expect(result.fields.intake_date).toBe('2026-11-28T00:00:00Z');
    expect(result.fields.custom_field_data).toEqual({ vaccinated_on: '2026-05-14' });
  });

  it('refuses an edit that only typed a date naming no day (not "nothing has changed")', () => {
    const original = draftFromPet(pet);
    expect(buildPetUpdate(original, { ...original, intake_date: '2026-02-31' })).toEqual({
      ok: false,
      errors: {
        intake_date: '“2026-02-31” is not a day: February 2026 has 28 days',
      },
    });
    // A value the pet already held that names no day does not block other changes.
    const odd = draftFromPet({ ...pet, custom_field_data: { vaccinated_on: 'spring' } });
    expect(buildPetUpdate(odd, { ...odd, status: 'hold' }, [vaccinated]).ok).toBe(true);
  });

  it('leaves a stored date it did not touch as it is, in whatever form it has, when another field changes', () => {
    const original = draftFromPet({
      ...pet,
      custom_field_data: { kennel: 'B2', vaccinated_on: '03/01/2026' },
    });
    const result = buildPetUpdate(
      original,
      { ...original, custom_field_data: { ...original.custom_field_data, kennel: 'C4' } },
      [vaccinated],
    );
    expect(result).toEqual({
      ok: true,
      fields: { custom_field_data: { kennel: 'C4', vaccinated_on: '03/01/2026' } },
    });
  });
});

describe('edit form', () => {
  it('sends only the changed fields, with the status notes', () => {
    const original = draftFromPet(pet);
    const result = buildPetUpdate(original, {
      ...original,
      status: 'hold',
      status_change_notes: 'Meet and greet Sat',
    });
    expect(result).toEqual({
      ok: true,
      fields: { status: 'hold', status_change_notes: 'Meet and greet Sat' },
    });
  });

  it('sends a birthday as its calendar day, and changes it but never clears it', () => {
    const original = draftFromPet({ ...pet, age_birthday: '2024-03-14T00:00:00.000Z' });
    expect(original.age_birthday).toBe('2024-03-14');
    expect(buildPetUpdate(original, { ...original, age_birthday: '2024-03-15' })).toEqual({
      ok: true,
      fields: { age_birthday: '2024-03-15T00:00:00Z' },
    });
    expect(buildPetUpdate(original, { ...original, age_birthday: '' })).toEqual({
      ok: false,
      errors: { age_birthday: 'A birthday cannot be emptied once given: type the day (it was Mar 14, 2024)' },
    });
  });

  it('says an emptied intake date cannot be, where a new pet may go without one (not that it is 30 years ago)', () => {
    expect(buildPetCreate({ ...emptyPetDraft(), ...basics, intake_date: '' }).ok).toBe(true);
    const original = draftFromPet({ ...pet, intake_date: '2025-08-18T00:00:00Z' });
    expect(buildPetUpdate(original, { ...original, intake_date: ' ' })).toEqual({
      ok: false,
      errors: {
        intake_date: 'The intake date cannot be emptied once given: type the day (it was Aug 18, 2025)',
      },
    });
  });

  it('says unchanged when nothing differs, and clears a removed value', () => {
    const original = draftFromPet(pet);
    expect(buildPetUpdate(original, { ...original })).toEqual({ ok: 'unchanged' });
    expect(buildPetUpdate(original, { ...original, microchip_id: '', good_with: [] })).toEqual({
      ok: true,
      fields: { microchip_id: '', good_with: [] },
    });
  });

  it('refuses an emptied name with a message on that field', () => {
    const original = draftFromPet(pet);
    const result = buildPetUpdate(original, { ...original, name: ' ' });
    expect(result.ok).toBe(false);
    if (result.ok !== false) return;
    expect(result.errors.name).toBe('must not be empty');
  });
});

describe('an intake date after today', () => {
  it('is said at the field, with how far ahead it is, before anything is saved', () => {
    expect(intakeAheadNote('2026-12-25', '2026-12-03')).toBe(
      `${formatCalendarDate('2026-12-25')} is 22 days from today: booked ahead? If the pet is here already, check the day and month.`,
    );
    expect(intakeAheadNote('2027-01-01', '2026-12-31')).toMatch(/ is tomorrow: booked ahead\?/);
  });

  it('says nothing of today, an earlier day, an empty field or text that is no day', () => {
    // Past the 90 days an intake may be booked ahead, the field's error says to check the year instead.
    for (const value of ['2026-12-03', '2026-11-30', '', 'next week', '2027-03-04']) {
      expect(intakeAheadNote(value, '2026-12-03')).toBeUndefined();
    }
  });
});

describe('an age group the pet’s age does not fall in', () => {
  it('is noted at the field the age was read from: the birthday as typed, or else the age', () => {
    const baby = { ...emptyPetDraft(), age_category: 'youngest' };
    // A birthday typed as staff type it, read in the desk's date order.
    const fromBirthday = ageGroupFieldNote({ ...baby, age_birthday: '1990-03-02' }, '2026-12-05');
    expect(fromBirthday?.field).toBe('age_birthday');
    expect(fromBirthday?.note).toMatch(
      /^The birthday makes it 36 years 9 months old, which is Senior .*, not Baby\. Check the birthday, or choose Senior\.$/,
    );
    const fromAge = ageGroupFieldNote({ ...baby, age_years: '4' }, '2026-12-05');
    expect(fromAge?.field).toBe('age_years');
    expect(fromAge?.note).toMatch(/, which is Adult \(2 to 8 years\), not Baby\./);
    expect(ageGroupFieldNote({ ...baby, age_months: '3' }, '2026-12-05')).toBeUndefined();
    // Text that names no day is the date's own message.
    expect(ageGroupFieldNote({ ...baby, age_birthday: 'last spring' }, '2026-12-05')).toBeUndefined();
  });
});
