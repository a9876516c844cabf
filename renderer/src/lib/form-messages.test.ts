import { describe, expect, it } from 'vitest';
import { fieldSentence } from './form-messages';

describe('field messages as sentences', () => {
  it('says what to do about the pets of an application', () => {
    expect(fieldSentence('application', 'choose at least one pet')).toBe(
      'Please choose at least one pet for the application.',
    );
    expect(fieldSentence('application', 'choose at most 5 pets')).toBe(
      'Please choose at most 5 pets for the application.',
    );
    expect(fieldSentence('application', 'Required')).toBe(
      'Please choose at least one pet for the application.',
    );
  });

  it('names the field, then what is wrong', () => {
    expect(fieldSentence('name', 'must not be empty')).toBe('Please enter the name.');
    expect(fieldSentence('species', 'Required')).toBe('Please choose the species.');
    expect(fieldSentence('email', 'must look like name@example.org')).toBe(
      'Email address must look like name@example.org.',
    );
    expect(
      fieldSentence(
        'intake_date',
        '“31/02/2026” is not a date the desk can read: type it like 28/11/2026 or 28 Nov 2026 (in this desk’s order), or 2026-11-28',
      ),
    ).toBe(
      'Intake date “31/02/2026” is not a date the desk can read: type it like 28/11/2026 or 28 Nov 2026 (in this desk’s order), or 2026-11-28.',
    );
  });
});
