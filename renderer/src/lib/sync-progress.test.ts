import { describe, expect, it } from 'vitest';
import { INITIAL_DESK_STATUS, type SyncProgress } from '../../../shared/desk-api';
import { listFilling, percentSoFar, recordsSoFar } from './sync-progress';

const progress = (recordsDone: number, recordsTotal: number | null): SyncProgress => ({
  phase: 'Pets',
  list: 'pets',
  pagesDone: 3,
  recordsDone,
  recordsTotal,
});

describe('how far a list’s reading came', () => {
  it('gives the records read of the server’s count, with thousands marked', () => {
    expect(recordsSoFar(progress(1200, 2681))).toBe(
      `${(1200).toLocaleString()} of ${(2681).toLocaleString()}`,
    );
    expect(recordsSoFar(progress(200, 480), true)).toBe('200 of about 480');
    expect(recordsSoFar(progress(0, null))).toBe('0');
  });

  it('never says more were read than there are: past the count, only how many came', () => {
    expect(recordsSoFar(progress(3000, 2681), true)).toBe((3000).toLocaleString());
    expect(recordsSoFar(progress(480, 480))).toBe('480 of 480');
  });

  it('fills a bar to at most 100 percent, and none while the size is unknown', () => {
    expect(percentSoFar(progress(120, 480))).toBe(25);
    expect(percentSoFar(progress(3000, 2681))).toBe(100);
    expect(percentSoFar(progress(0, 0))).toBeUndefined();
    expect(percentSoFar(progress(10, null))).toBeUndefined();
  });
});

describe('the list a first sync is filling', () => {
  it('names it while its stage is filling, and none while it prepares the search, updates or is done', () => {
    const syncing = (patch: Partial<SyncProgress>) => ({
      ...INITIAL_DESK_STATUS,
      state: 'syncing' as const,
      progress: { ...progress(100, 480), ...patch },
    });
    expect(listFilling(syncing({ stage: 'filling' }))).toBe('pets');
    expect(listFilling(syncing({ stage: 'filling', phase: 'Adopters', list: 'adopters' }))).toBe('adopters');
    // Read from the list itself, not its label: the pets off the public list are not the pets' list.
    expect(
      listFilling(syncing({ stage: 'filling', phase: 'Pets off the public list', list: undefined })),
    ).toBeUndefined();
    expect(listFilling(syncing({ stage: 'finishing' }))).toBeUndefined();
    expect(listFilling(syncing({ stage: 'updating' }))).toBeUndefined();
    expect(listFilling({ ...syncing({ stage: 'filling' }), state: 'idle' })).toBeUndefined();
  });
});
