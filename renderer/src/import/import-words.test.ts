import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../shared/desk-api';
import { importLabel, nothingLeftWords } from './import-words';

const report = (
  kind: ImportReport['kind'],
  rows: number,
  totals: Partial<ImportReport['totals']>,
): ImportReport =>
  ({
    kind,
    rows,
    totals: { new: 0, existing: 0, updatable: 0, rejected: 0, publicUnsaid: 0, notes: 0, ...totals },
  }) as ImportReport;

describe('nothingLeftWords', () => {
  it('says why a file offers nothing to import, in the number of its rows', () => {
    expect(nothingLeftWords(report('pets', 0, {}))).toBe(
      'Nothing to import: the file has no rows under its header.',
    );
    expect(nothingLeftWords(report('pets', 1, { rejected: 1 }))).toBe(
      'Nothing to import until the rejected row is put right: the table above says how.',
    );
    expect(nothingLeftWords(report('pets', 3, { rejected: 2, existing: 1 }))).toBe(
      'Nothing to import until the rejected rows are put right: the table above says how. The other row is a pet on this desk already, as the file has it.',
    );
    expect(nothingLeftWords(report('adopters', 3, { rejected: 1, existing: 2 }))).toBe(
      'Nothing to import until the rejected row is put right: the table above says how. The other rows are adopters on this desk already.',
    );
    expect(nothingLeftWords(report('pets', 4, { existing: 4 }))).toBe(
      'Nothing to import: every pet in the file is on this desk already, as the file has it.',
    );
    // People are never updated by an import: nothing is said of their values.
    expect(nothingLeftWords(report('fosters', 1, { existing: 1 }))).toBe(
      'Nothing to import: the file’s only foster is on this desk already.',
    );
    expect(nothingLeftWords(report('adopters', 2, { rejected: 1, existing: 1 }))).toContain(
      'The other row is an adopter on this desk already.',
    );
  });
});

describe('importLabel', () => {
  it('names what the import writes', () => {
    expect(importLabel('pets', 3, 0)).toBe('Import 3 pets');
    expect(importLabel('pets', 0, 1)).toBe('Update 1 pet');
    expect(importLabel('pets', 2, 5)).toBe('Import 2 pets, update 5');
    expect(importLabel('adopters', 1, 0)).toBe('Import 1 adopter');
  });
});
