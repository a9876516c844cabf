import { z } from 'zod';

/** 8-4-4-4-12 hex identifier. Lenient on version bits: the hosted service's ids are not all v4. */
export const uuidSchema = z.guid({ error: 'must be a UUID' });
/** RFC 3339 date-time with `Z` or an offset, as the API sends and accepts. */
export const dateTimeSchema = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
});
/**
 * The date-time the API takes for a calendar day (a birthday, an intake date): midnight UTC of that day, as the server
 * stores date-only fields. Made from the day's text, never through a time zone.
 */
export function calendarDayAsDateTime(day: string): string {
  return `${day}T00:00:00Z`;
}
export const stringArraySchema = z.array(z.string());
/** Free-form JSON object; values are arbitrary JSON. */
export const customFieldDataSchema = z.record(z.string(), z.unknown());
