import { describe, expect, it } from 'vitest';
import { defaultedFields, type RecordPlan } from './build-record';

const plan = (targets: string[], showPublic = false): RecordPlan =>
  ({
    kind: 'pets',
    columns: targets.map((target) => ({ target })),
    customFields: [],
    values: {},
    today: '2026-11-29',
    showPublic,
  }) as unknown as RecordPlan;

describe('the fields an import fills for every pet', () => {
  it('keeps the pets off the public list when no column says whether they go on it, unless chosen', () => {
    expect(defaultedFields(plan(['name', 'species']))).toMatchObject({
      status: 'available',
      show_public: 'false',
    });
    expect(defaultedFields(plan(['name', 'species'], true))).toMatchObject({ show_public: 'true' });
    expect(defaultedFields(plan(['name', 'species', 'show_public']))).not.toHaveProperty('show_public');
  });
});
