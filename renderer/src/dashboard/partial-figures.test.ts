import { describe, expect, it } from 'vitest';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { partialFiguresWords } from './partial-figures';

const desk = (state: DeskStatus['state'], lastSyncedAt: string | null): DeskStatus => ({
  ...INITIAL_DESK_STATUS,
  remote: 'http://shelter.example:8080',
  state,
  lastSyncedAt,
});

describe('the note over figures that are not the whole shelter’s', () => {
  it('says the first sync runs, or that none completed, until one does', () => {
    expect(partialFiguresWords(desk('syncing', null))).toMatch(
      /^The first sync with your shelter is still under way/,
    );
    expect(partialFiguresWords(desk('offline', null))).toMatch(
      /^This desk has not completed a sync with your shelter yet/,
    );
    expect(partialFiguresWords(desk('syncing', '2026-12-01T09:00:00.000Z'))).toBeUndefined();
    expect(partialFiguresWords(undefined)).toBeUndefined();
  });
});
