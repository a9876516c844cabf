import { describe, expect, it } from 'vitest';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { firstSyncProgressWords, overviewWaiting } from './overview-waiting';

const connected = (patch: Partial<DeskStatus>): DeskStatus => ({
  ...INITIAL_DESK_STATUS,
  remote: 'http://shelter.example:8080',
  state: 'idle',
  ...patch,
});
const SYNCED = '2026-12-01T09:00:00.000Z';

describe('why an empty Overview is empty', () => {
  it('asks for a connection only when there is none', () => {
    expect(overviewWaiting(INITIAL_DESK_STATUS)).toBe('no-connection');
    expect(overviewWaiting(undefined)).toBe('no-connection');
  });

  it('says the first sync is under way while a desk that never synced reaches or reads its server', () => {
    expect(overviewWaiting(connected({ state: 'connecting', lastSyncedAt: null }))).toBe('first-sync');
    expect(overviewWaiting(connected({ state: 'syncing', lastSyncedAt: null }))).toBe('first-sync');
  });

  it('says the desk has not synced when its first sync stopped short', () => {
    for (const state of ['offline', 'error', 'needs-auth', 'idle'] as const)
      expect(overviewWaiting(connected({ state, lastSyncedAt: null }))).toBe('never-synced');
  });

  it('says the shelter has no pets once a sync completed, whatever runs now', () => {
    for (const state of ['idle', 'syncing', 'offline', 'error'] as const)
      expect(overviewWaiting(connected({ state, lastSyncedAt: SYNCED }))).toBe('no-pets');
  });
});

describe('the first sync’s progress in words', () => {
  it('names the list and how far it came, with the total when the server gave one', () => {
    const progress = { phase: 'Pets', stage: 'filling' as const, pagesDone: 12, recordsDone: 1200 };
    expect(
      firstSyncProgressWords(connected({ state: 'syncing', progress: { ...progress, recordsTotal: 2681 } })),
    ).toBe(`Pets: ${(1200).toLocaleString()} of about ${(2681).toLocaleString()} so far`);
    expect(
      firstSyncProgressWords(connected({ state: 'syncing', progress: { ...progress, recordsTotal: null } })),
    ).toBe(`Pets: ${(1200).toLocaleString()} so far`);
    expect(firstSyncProgressWords(connected({ state: 'connecting', progress: null }))).toBeUndefined();
  });
});
