import { describe, expect, it } from 'vitest';
import { DESK_STATUS_STATES, INITIAL_DESK_STATUS } from '../../../shared/desk-api';
import { describeWhen, lookOf, STATUS_LOOKS, statusLine, statusParts } from './status-presentation';

describe('status presentation', () => {
  it('has a label and advice for every status state', () => {
    for (const state of DESK_STATUS_STATES) {
      expect(STATUS_LOOKS[state].label.length).toBeGreaterThan(0);
      expect(STATUS_LOOKS[state].advice.length).toBeGreaterThan(0);
    }
  });

  it('up to date with a change the server refused: says so, in another colour', () => {
    const idle = { ...INITIAL_DESK_STATUS, state: 'idle' as const };
    expect(lookOf(idle).advice).toBe('This desk has everything the server has.');
    const refused = lookOf({ ...idle, needsAttention: 1 });
    expect(refused.advice).toBe(
      'This desk has everything the server has, but the server refused a change made here: see Sync.',
    );
    expect(refused.color).not.toBe(STATUS_LOOKS.idle.color);
    expect(lookOf({ ...idle, needsAttention: 3 }).advice).toContain('refused 3 changes');
  });

  it('a standalone desk, once idle, says whether the changes made on it are recorded: never server words', () => {
    const idle = { ...INITIAL_DESK_STATUS, state: 'idle' as const };
    expect(statusLine(idle, true)).toBe('All recorded');
    expect(lookOf(idle, true).advice).toBe('Every change made on this desk is in the shelter’s records.');
    const recording = lookOf({ ...idle, pending: 2 }, true);
    expect(recording.label).toBe('Recording');
    expect(recording.advice).toBe('2 changes made on this desk are going into the shelter’s records.');
    const refused = lookOf({ ...idle, pending: 2, needsAttention: 1 }, true);
    expect(refused.label).toBe('Needs a look');
    expect(refused.advice).toBe(
      'The shelter’s records refused a change made on this desk: the changes list on Sync says why.',
    );
    expect(refused.color).not.toBe(STATUS_LOOKS.idle.color);
    for (const look of [lookOf(idle, true), recording, refused])
      expect(look.advice).not.toMatch(/server|sync/);
    // Its own records not readable (another desk holds their folder): no sync words, and it says it retries.
    const failed = { ...idle, state: 'error' as const, error: { code: 'unavailable', message: 'Held.' } };
    expect(statusLine(failed, true)).toBe('Records problem');
    expect(lookOf(failed, true).advice).toContain('tries again by itself');
    // Its own server stopped, or a run in progress: the state's own words, as on any desk.
    expect(statusLine({ ...idle, state: 'offline' }, true)).toBe('Offline');
  });

  it('says "Not connected" plainly before anything is set up', () => {
    expect(statusLine(INITIAL_DESK_STATUS)).toBe('Not connected');
  });

  it('shows sync progress with and without a known total', () => {
    const syncing = { ...INITIAL_DESK_STATUS, state: 'syncing' as const };
    expect(
      statusLine({
        ...syncing,
        progress: { phase: 'Pets', pagesDone: 2, recordsDone: 200, recordsTotal: 480 },
      }),
    ).toBe('Syncing · Pets 200 of 480');
    // Apart, for a header that has room for the first part only.
    expect(
      statusParts({
        ...syncing,
        progress: { phase: 'Pets', pagesDone: 2, recordsDone: 200, recordsTotal: 480 },
      }),
    ).toEqual({ label: 'Syncing', progress: 'Pets 200 of 480' });
    expect(statusParts({ ...syncing, state: 'idle' }, true)).toEqual({
      label: 'All recorded',
      progress: undefined,
    });
    expect(
      statusLine({
        ...syncing,
        progress: { phase: 'Adopters', pagesDone: 0, recordsDone: 0, recordsTotal: null },
      }),
    ).toBe('Syncing · Adopters 0');
    // Past the server's count (the list grew, or came reordered): how many came, never "3,000 of 2,681".
    expect(
      statusLine({
        ...syncing,
        progress: { phase: 'Pets', pagesDone: 30, recordsDone: 3000, recordsTotal: 2681 },
      }),
    ).toBe(`Syncing · Pets ${(3000).toLocaleString()}`);
  });

  it('says a first sync is preparing the search of what it read, with how far it came, not a list stuck at its end', () => {
    const finishing = {
      ...INITIAL_DESK_STATUS,
      state: 'syncing' as const,
      progress: {
        phase: 'Pets',
        stage: 'finishing' as const,
        pagesDone: 0,
        recordsDone: 40_000,
        recordsTotal: 88_263,
      },
    };
    expect(statusParts(finishing)).toEqual({ label: 'Syncing', progress: 'Pets: preparing search 45%' });
    expect(
      statusLine({ ...finishing, progress: { ...finishing.progress, recordsTotal: 0, recordsDone: 0 } }),
    ).toBe('Syncing · Pets: preparing search');
  });

  it('says "Not up to date" after a sync that could not prove the mirror complete, never "Up to date"', () => {
    const behind = {
      ...INITIAL_DESK_STATUS,
      state: 'error' as const,
      error: {
        code: 'sync_incomplete',
        message: 'The server’s pets list kept changing while the desk read it.',
      },
    };
    expect(statusLine(behind)).toBe('Not up to date');
    expect(
      statusLine({ ...behind, error: { code: 'invalid_response', message: 'A record broke the contract.' } }),
    ).toBe('Sync problem');
  });

  it('describes when the last sync happened', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(describeWhen(null, now)).toBe('never');
    expect(describeWhen('2026-05-01T11:59:50Z', now)).toBe('just now');
    expect(describeWhen('2026-05-01T11:55:00Z', now)).toMatch(/5 minutes ago/);
    expect(describeWhen('not a date', now)).toBe('not a date');
  });
});
