import { describe, expect, it } from 'vitest';
import { defaultedFields, PUBLIC_BY_DEFAULT, type RecordPlan } from './build-record';

const plan = (targets: string[]): RecordPlan =>
  ({
    kind: 'pets',
    columns: targets.map((target) => ({ target })),
    customFields: [],
    values: {},
    today: '2026-11-29',
  }) as unknown as RecordPlan;

describe('the fields an import fills for every pet', () => {
  it('says the pets go on the public list when no column says whether they do', () => {
    expect(defaultedFields(plan(['name', 'species']))).toMatchObject({
      status: 'available',
      show_public: PUBLIC_BY_DEFAULT,
    });
    expect(defaultedFields(plan(['name', 'species', 'show_public']))).not.toHaveProperty('show_public');
  });
});
