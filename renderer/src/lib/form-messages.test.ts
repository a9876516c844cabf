import { describe, expect, it } from 'vitest';
import { fieldSentence, NO_AGREEMENT_TO_ACCEPT } from './form-messages';

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

  it('asks for the tick on the terms, unless the desk said why there is nothing to accept', () => {
    expect(fieldSentence('terms', 'the applicant must accept the terms')).toBe(
      'Please accept the adoption terms.',
    );
    expect(fieldSentence('terms', NO_AGREEMENT_TO_ACCEPT)).toBe(NO_AGREEMENT_TO_ACCEPT);
    expect(fieldSentence('terms', 'Terms must be accepted')).toBe('Please accept the adoption terms.');
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
      'Intake date: “31/02/2026” is not a date the desk can read: type it like 28/11/2026 or 28 Nov 2026 (in this desk’s order), or 2026-11-28.',
    );
  });

  it('does not name the field twice when the message is a sentence that names it', () => {
    expect(fieldSentence('age_birthday', 'A birthday cannot be after today (Dec 1, 2026)')).toBe(
      'A birthday cannot be after today (Dec 1, 2026).',
    );
    expect(fieldSentence('weight', 'Must be a number')).toBe('Weight: Must be a number.');
    // The label as a word, not inside another ("age" in "page").
    expect(fieldSentence('age_category', 'See the page for ages')).toBe('Age: See the page for ages.');
  });
});
