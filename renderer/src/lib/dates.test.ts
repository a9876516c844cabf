import { afterEach, describe, expect, it } from 'vitest';
import { calendarDate, formatCalendarDate, localToday } from './dates';

// The renderer has no Node types; the tests run in Node, whose TZ variable sets the zone of `Date`.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const originalZone = env.TZ;
afterEach(() => {
  env.TZ = originalZone;
});

// Node applies a change of TZ at once: each case runs west and east of UTC, where a day-shift would show.
describe.each(['America/Los_Angeles', 'Pacific/Auckland'])('shelter dates in %s', (zone) => {
  it('shows an intake date as the calendar day written', () => {
    env.TZ = zone;
    expect(new Date(Date.UTC(2026, 4, 14)).getTimezoneOffset()).not.toBe(0); // the zone is really in effect
    const may14 = new Date(2026, 4, 14).toLocaleDateString(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    expect(formatCalendarDate('2026-05-14T00:00:00.000Z')).toBe(may14);
    expect(formatCalendarDate('2026-05-14T23:30:00+01:00')).toBe(may14);
    expect(calendarDate('2026-12-31T23:59:59-10:00')).toBe('2026-12-31');
    expect(formatCalendarDate(null)).toBe('—');
    expect(formatCalendarDate('last Tuesday')).toBe('last Tuesday');
  });

  it("takes the desk's local today, not UTC's", () => {
    env.TZ = zone;
    // Late afternoon in California is already tomorrow in UTC; early morning in Auckland is still yesterday.
    for (const hour of [0, 6, 17, 23]) {
      const moment = new Date(2026, 4, 14, hour, 30);
      expect(localToday(moment)).toBe('2026-05-14');
    }
  });
});
