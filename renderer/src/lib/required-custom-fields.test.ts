import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../shared/contract';
import { fieldSentence } from './form-messages';
import { missingCustomFields, readCustomDates } from './required-custom-fields';

const field = (key: string, type: string, extra: Partial<CustomField> = {}) =>
  ({
    field_key: key,
    label: `${key} label`,
    field_type: type,
    required: true,
    hidden: false,
    ...extra,
  }) as CustomField;

describe("the shelter's required fields on a new record", () => {
  it('names each required field left empty, by its own label', () => {
    const fields = [
      field('home_type', 'select'),
      field('landlord', 'text'),
      field('visit', 'date'),
      field('notes', 'text', { required: false }),
      field('secret', 'text', { hidden: true }),
      field('has_yard', 'checkbox'),
    ];
    const messages = missingCustomFields(fields, { home_type: 'House', landlord: '  ', notes: '' });
    expect(messages).toEqual({
      'custom_field_data.landlord': 'Please answer “landlord label”.',
      'custom_field_data.visit': 'Please answer “visit label”.',
    });
    // Shown as written: the form's sentence for a shelter field is its message.
    expect(fieldSentence('custom_field_data.visit', 'Please answer “visit label”.')).toBe(
      'Please answer “visit label”.',
    );
    expect(missingCustomFields(fields, { home_type: 'Farm', landlord: 'Kim', visit: '2026-11-28' })).toEqual(
      {},
    );
  });
});

describe("the shelter's date fields as a form sends them", () => {
  it('sends each readable date as its day and names each that names no day, leaving other fields alone', () => {
    const fields = [field('vaccinated', 'date', { label: 'Vaccinated on' }), field('kennel', 'text')];
    expect(readCustomDates(fields, { vaccinated: '14/05/2026', kennel: '31/02/2026' })).toEqual({
      values: { vaccinated: '2026-05-14', kennel: '31/02/2026' },
      messages: {},
    });
    expect(readCustomDates(fields, { vaccinated: '2026-05-14T00:00:00Z' }).values).toEqual({
      vaccinated: '2026-05-14',
    });
    expect(readCustomDates(fields, { vaccinated: '31/02/2026' }).messages).toEqual({
      'custom_field_data.vaccinated': 'Vaccinated on “31/02/2026” is not a day: February 2026 has 28 days.',
    });
  });
});
