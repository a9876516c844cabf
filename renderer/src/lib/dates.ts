/**
 * The shelter's dates. A date-only field (intake date, birthday, outcome date) is a calendar date: the day written
 * at the start of the API's value (`2026-05-14T00:00:00Z` is 14 May wherever the desk is). It never goes through
 * `Date`, whose time zone would move it a day west of UTC. Timestamps (`updated_at`) are moments and are shown in the
 * desk's local time. Both print in one format: "14 May 2026" in the desk's language order.
 */

const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})/;

/** One display format for every date the desk shows. */
const DAY_FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/** `YYYY-MM-DD` of a date-only value as written, or undefined when it does not start with a date. */
export function calendarDate(value: string | null | undefined): string | undefined {
  const match = value ? CALENDAR.exec(value) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** Today on the desk's own calendar (not UTC's), as `YYYY-MM-DD`. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A date-only field as people read it ("May 14, 2026"); "—" when empty; the raw text when it is no date. */
export function formatCalendarDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = calendarDate(value);
  if (!day) return value;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // Formatted as the same day in UTC, so no local offset can move it.
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString(undefined, {
    ...DAY_FORMAT,
    timeZone: 'UTC',
  });
}

/** A moment (created_at, updated_at, last sync) as the local day it happened on, in the same format. */
export function formatMomentDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Date(at).toLocaleDateString(undefined, DAY_FORMAT);
}

/** The API form of a calendar date picked on the desk: midnight UTC of that day, the way the server stores it. */
export function calendarDateToApi(day: string): string {
  return `${day}T00:00:00Z`;
}
