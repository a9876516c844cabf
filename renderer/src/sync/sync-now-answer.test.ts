import { describe, expect, it } from 'vitest';
import { answerStillCurrent, syncNowAnswer } from './sync-now-answer';

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

describe('answerStillCurrent', () => {
  it('keeps the answer until a sync completes after it', () => {
    expect(answerStillCurrent(at, null)).toBe(true);
    // The press's own sync completed just before its answer came back.
    expect(answerStillCurrent(at, new Date(at.getTime() - 40).toISOString())).toBe(true);
    expect(answerStillCurrent(at, at.toISOString())).toBe(true);
    // A sync the desk ran on its own a minute later.
    expect(answerStillCurrent(at, new Date(at.getTime() + 60_000).toISOString())).toBe(false);
  });
});
