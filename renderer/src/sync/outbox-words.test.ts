import { describe, expect, it } from 'vitest';
import { changeInWords, errorInWords, putRightInPetForm, refusalReason } from './outbox-words';

describe('changes named as people think of them', () => {
  it('names new pets, edits and applications', () => {
    expect(
      changeInWords({ operation: 'pet.create', summary: 'Create pet "Bella"', body: { name: 'Bella' } }),
    ).toBe('New pet Bella');
    expect(
      changeInWords({
        operation: 'pet.update',
        summary: 'Update pet "Bella": description',
        body: { description: 'x' },
      }),
    ).toBe('Bella’s description');
    expect(
      changeInWords({
        operation: 'pet.update',
        summary: 'Update pet "Rex": status, status_change_notes, adoption_fee',
        body: { status: 'hold', status_change_notes: 'x', adoption_fee: '50' },
      }),
    ).toBe('Rex’s status and adoption fee');
    expect(
      changeInWords(
        {
          operation: 'person.create',
          summary: 'Create adopter "Dana Lee"',
          body: { type: 'adopter', name: 'Dana Lee', application: { pet_ids: ['p1'], terms_accepted: true } },
        },
        new Map([['p1', 'Rex']]),
      ),
    ).toBe('Application from Dana Lee for Rex');
    expect(
      changeInWords({ operation: 'person.create', summary: 'Create foster "Sam"', body: { type: 'foster' } }),
    ).toBe('New foster Sam');
  });

  it('says what went wrong in words, and what happens next', () => {
    const base = { code: null, requestId: 'r-1', message: 'fetch failed' };
    expect(errorInWords({ ...base, status: null }, false)).toBe(
      'The server could not be reached; the change will be sent when it is back.',
    );
    expect(
      errorInWords(
        {
          ...base,
          status: 400,
          code: 'validation_failed',
          fieldErrors: [{ field: 'name', message: 'must not be empty' }],
        },
        true,
      ),
    ).toBe(
      'The server did not accept this change: Name must not be empty. Edit and resubmit it, or discard it.',
    );
    expect(errorInWords({ ...base, status: 503 }, false)).toMatch(/try again by itself/);
  });

  it('sends a new pet refused for what it holds to its own form, and only that', () => {
    const refused = {
      status: 400,
      code: 'validation_failed',
      message: 'Invalid fields',
      requestId: null,
      fieldErrors: [{ field: 'custom_id', message: 'is already used by another pet' }],
    };
    expect(refusalReason(refused)).toBe('Shelter id is already used by another pet.');
    expect(putRightInPetForm({ operation: 'pet.create', state: 'needs-attention', lastError: refused })).toBe(
      true,
    );
    // Not a pet's create, not refused for its fields, or not refused at all: Sync's own remedies.
    expect(putRightInPetForm({ operation: 'pet.update', state: 'needs-attention', lastError: refused })).toBe(
      false,
    );
    expect(
      putRightInPetForm({
        operation: 'pet.create',
        state: 'needs-attention',
        lastError: { ...refused, status: 404 },
      }),
    ).toBe(false);
    expect(
      putRightInPetForm({
        operation: 'pet.create',
        state: 'needs-attention',
        lastError: { ...refused, status: null },
      }),
    ).toBe(false);
    expect(putRightInPetForm({ operation: 'pet.create', state: 'pending', lastError: refused })).toBe(false);
    expect(refusalReason({ ...refused, fieldErrors: [], message: 'Species is not known' })).toBe(
      'Species is not known.',
    );
  });
});
