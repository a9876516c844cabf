import { describe, expect, it } from 'vitest';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { fillingProgress, fillingWords } from './filling-progress';

const syncing = (progress: DeskStatus['progress'], lastSyncedAt: string | null = null): DeskStatus => ({
  ...INITIAL_DESK_STATUS,
  state: 'syncing',
  lastSyncedAt,
  progress,
});

describe('the list’s count line while the first sync fills the mirror', () => {
  it('says it is filling, with how far it has come, from the stage of the sync status', () => {
    const status = syncing({
      phase: 'Pets',
      list: 'pets',
      stage: 'filling',
      pagesDone: 4,
      recordsDone: 1200,
      recordsTotal: 87000,
    });
    const filling = fillingProgress(status, 'pets');
    expect(filling).toMatchObject({ recordsDone: 1200, recordsTotal: 87000 });
    expect(fillingWords(filling as NonNullable<typeof filling>, 'pets')).toBe(
      `Filling: ${(1200).toLocaleString()} of about ${(87000).toLocaleString()} pets`,
    );
    // Past the server's count (the list grew while it was read): how many came, never "3,100 of about 3,000".
    const past = fillingProgress(
      syncing({
        phase: 'Pets',
        list: 'pets',
        stage: 'filling',
        pagesDone: 31,
        recordsDone: 3100,
        recordsTotal: 3000,
      }),
      'pets',
    );
    expect(fillingWords(past as NonNullable<typeof past>, 'pets')).toBe(
      `Filling: ${(3100).toLocaleString()} pets`,
    );
  });

  it('shows the plain count when the sync is not filling this list', () => {
    const progress = {
      phase: 'Pets',
      list: 'pets' as const,
      pagesDone: 1,
      recordsDone: 300,
      recordsTotal: 87000,
    };
    expect(fillingProgress(syncing({ ...progress, stage: 'updating' }), 'pets')).toBeUndefined();
    expect(
      fillingProgress(
        syncing({ ...progress, stage: 'filling', phase: 'Adopters', list: 'adopters' }),
        'pets',
      ),
    ).toBeUndefined();
    expect(
      fillingProgress(syncing({ ...progress, stage: 'filling', recordsTotal: null }), 'pets'),
    ).toBeUndefined();
    // A step named after the pets that does not read their list.
    expect(
      fillingProgress(
        syncing({ ...progress, stage: 'filling', phase: 'Pets off the public list', list: undefined }),
        'pets',
      ),
    ).toBeUndefined();
    expect(fillingProgress({ ...syncing(null), state: 'idle' }, 'pets')).toBeUndefined();
    expect(fillingProgress(undefined, 'pets')).toBeUndefined();
  });

  it('fills a list of a connection switched to even after another connection has synced', () => {
    const status = syncing(
      { phase: 'Pets', list: 'pets', stage: 'filling', pagesDone: 1, recordsDone: 100, recordsTotal: 500 },
      '2026-11-25T10:00:00.000Z',
    );
    expect(fillingProgress(status, 'pets')).toMatchObject({ recordsDone: 100, recordsTotal: 500 });
  });
});
