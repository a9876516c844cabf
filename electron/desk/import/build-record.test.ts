import { describe, expect, it } from 'vitest';
import { buildRecord, defaultedFields, type RecordPlan } from './build-record';

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

  it('says that pets of a file without a spayed column are recorded as not spayed, rather than leave it unsaid', () => {
    expect(defaultedFields(plan(['name', 'species']))).toMatchObject({ spayed: 'false' });
    expect(defaultedFields(plan(['name', 'species', 'spayed']))).not.toHaveProperty('spayed');
  });
});

describe('a row the import refuses', () => {
  const columns = (pairs: Array<[string, string]>) =>
    ({
      ...plan([]),
      columns: pairs.map(([header, target]) => ({ header, target, source: 'matched' })),
    }) as unknown as RecordPlan;

  it('is told every problem at once: a refused cell, and what the record then lacks besides', () => {
    const built = buildRecord(
      columns([
        ['Name', 'name'],
        ['Species', 'species'],
        ['Intake', 'intake_date'],
      ]),
      6,
      ['', 'dog', '12/01/2026'],
    );
    expect(built.ok).toBe(false);
    const problems = built.ok ? [] : built.problems;
    expect(problems.map((problem) => [problem.line, problem.column, problem.reason])).toEqual([
      [6, 'Intake', expect.stringContaining('could be 12 January or 1 December')],
      [6, 'Name', 'is empty'],
    ]);
  });

  it('joins the breeds of two columns sent to breed into one list', () => {
    const built = buildRecord(
      columns([
        ['Name', 'name'],
        ['Species', 'species'],
        ['Primary breed', 'breed'],
        ['Secondary breed', 'breed'],
      ]),
      3,
      ['Rex', 'dog', 'Beagle', 'Boxer'],
    );
    expect(built.ok && built.body.breed).toEqual(['Beagle', 'Boxer']);
  });

  it('is not told that a field whose cell was refused is missing as well', () => {
    const built = buildRecord(
      columns([
        ['Name', 'name'],
        ['Species', 'species'],
      ]),
      2,
      ['Polly', 'Parrot'],
    );
    const problems = built.ok ? [] : built.problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      column: 'Species',
      reason: expect.stringContaining('"Parrot" is not a species'),
    });
  });
});

describe('a person row the import refuses', () => {
  it('is not told that the name is missing when its first or last name cell was refused', () => {
    const people = {
      ...plan([]),
      kind: 'adopters',
      columns: [
        { header: 'First', target: 'first_name', source: 'matched' },
        { header: 'Last', target: 'last_name', source: 'matched' },
      ],
    } as unknown as RecordPlan;
    const built = buildRecord(people, 3, ['x'.repeat(300), '']);
    const problems = built.ok ? [] : built.problems;
    expect(problems.map((problem) => problem.column)).toEqual(['First']);
  });
});
