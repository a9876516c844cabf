import { describe, expect, it } from 'vitest';
import { answerStillHolds, pressAnswer, syncNowAnswer } from './sync-now-answer';

const at = new Date(2026, 11, 1, 9, 5);
const run = { complete: true, requests: 4, notModified: 4, written: 0, problems: [], durationMs: 120 };

describe('syncNowAnswer', () => {
  it('says a press that could not sync was tried, and where the reason is', () => {
    expect(syncNowAnswer(null, at)).toMatch(
      /^Tried at 0?9.05.*: the desk could not sync\. The card below says why\.$/,
    );
  });

  it('says what a sync brought', () => {
    expect(syncNowAnswer(run, at)).toMatch(/^Synced at 0?9.05.*: nothing new\.$/);
    expect(syncNowAnswer({ ...run, written: 1 }, at)).toMatch(/: 1 record brought up to date\.$/);
    expect(syncNowAnswer({ ...run, written: 1200 }, at)).toMatch(/: 1,200 records brought up to date\.$/);
  });

  it('says a sync that did not complete, and where the reason is', () => {
    expect(syncNowAnswer({ ...run, complete: false, problems: ['x', 'y'] }, at)).toMatch(
      /, but not all of it\. The card below says why\.$/,
    );
  });
});

describe('answerStillHolds', () => {
  const before = '2026-12-01T08:50:00.000Z';
  const later = '2026-12-01T09:06:00.000Z';

  it('drops "could not sync" and "not all of it" once a sync completes after the press', () => {
    for (const result of [null, { ...run, complete: false, problems: ['x'] }]) {
      const answer = pressAnswer(result, at, before);
      expect(answerStillHolds(answer, before)).toBe(true);
      expect(answerStillHolds(answer, later)).toBe(false);
    }
    expect(answerStillHolds(pressAnswer(null, at, null), null)).toBe(true);
    expect(answerStillHolds(pressAnswer(null, at, null), later)).toBe(false);
  });

  it('keeps what a completed press brought, whatever syncs after it', () => {
    expect(answerStillHolds(pressAnswer(run, at, before), later)).toBe(true);
  });
});
