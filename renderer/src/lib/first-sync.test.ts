import { describe, expect, it } from 'vitest';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { firstSyncProgressWords, nothingHereBecause } from './first-sync';

const status = (patch: Partial<DeskStatus>): DeskStatus => ({
  ...INITIAL_DESK_STATUS,
  remote: 'http://shelter.example:8080',
  state: 'idle',
  ...patch,
});
const SYNCED = '2026-12-01T09:00:00.000Z';

describe('why a connected desk’s screen is empty', () => {
  it('asks for a connection only when the desk has none', () => {
    expect(nothingHereBecause(false, INITIAL_DESK_STATUS)).toBe('no-connection');
    expect(nothingHereBecause(false, status({ lastSyncedAt: SYNCED }))).toBe('no-connection');
    // The connection not known yet: by the status alone.
    expect(nothingHereBecause(undefined, INITIAL_DESK_STATUS)).toBe('no-connection');
    expect(nothingHereBecause(undefined, undefined)).toBe('no-connection');
  });

  it('says the first sync is under way while a connected desk that never synced starts, reaches or reads its server', () => {
    // Just saved, or just started: the status says not-connected until the sync begins.
    expect(nothingHereBecause(true, status({ state: 'not-connected', lastSyncedAt: null }))).toBe(
      'first-sync',
    );
    expect(nothingHereBecause(true, status({ state: 'connecting', lastSyncedAt: null }))).toBe('first-sync');
    expect(nothingHereBecause(true, status({ state: 'syncing', lastSyncedAt: null }))).toBe('first-sync');
    expect(nothingHereBecause(undefined, status({ state: 'syncing', lastSyncedAt: null }))).toBe(
      'first-sync',
    );
  });

  it('says the desk has not synced when its first sync stopped short, or its status cannot be read', () => {
    for (const state of ['offline', 'error', 'needs-auth', 'idle'] as const)
      expect(nothingHereBecause(true, status({ state, lastSyncedAt: null }))).toBe('never-synced');
    expect(nothingHereBecause(true, undefined)).toBe('never-synced');
  });

  it('says the shelter has nothing to count once a sync completed, whatever runs now', () => {
    for (const state of ['idle', 'syncing', 'offline', 'error'] as const)
      expect(nothingHereBecause(true, status({ state, lastSyncedAt: SYNCED }))).toBe('none-yet');
  });
});

describe('the first sync’s progress in words', () => {
  it('names the list and how far it came, with the total when the server gave one', () => {
    const progress = { phase: 'Pets', stage: 'filling' as const, pagesDone: 12, recordsDone: 1200 };
    expect(
      firstSyncProgressWords(status({ state: 'syncing', progress: { ...progress, recordsTotal: 2681 } })),
    ).toBe(`Pets: ${(1200).toLocaleString()} of about ${(2681).toLocaleString()} so far`);
    expect(
      firstSyncProgressWords(status({ state: 'syncing', progress: { ...progress, recordsTotal: null } })),
    ).toBe(`Pets: ${(1200).toLocaleString()} so far`);
    expect(firstSyncProgressWords(status({ state: 'connecting', progress: null }))).toBeUndefined();
    expect(
      firstSyncProgressWords(
        status({ state: 'syncing', progress: { ...progress, stage: 'finishing', recordsTotal: 2681 } }),
      ),
    ).toBe('Pets: preparing search');
  });
});
