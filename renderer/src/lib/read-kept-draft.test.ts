import { describe, expect, it } from 'vitest';
import { readKeptDraft } from './read-kept-draft';

describe('a kept draft read back onto a form', () => {
  it('takes each field of the same kind and leaves the rest empty; nothing fitting is no draft', () => {
    const empty = { name: '', spayed: false, good_with: [] as string[], custom_field_data: {} };
    const kept = readKeptDraft(empty, {
      name: 'Kiwi',
      spayed: 'yes',
      good_with: ['cats', 3],
      custom_field_data: { kennel: 'B4' },
      stranger: 'ignored',
    });
    expect(kept).toEqual({ name: 'Kiwi', spayed: false, good_with: [], custom_field_data: { kennel: 'B4' } });
    expect(readKeptDraft(empty, { other: 1 })).toBeUndefined();
    expect(readKeptDraft(empty, 'text')).toBeUndefined();
    expect(readKeptDraft(empty, null)).toBeUndefined();
  });
});
