import { calendarDate, formatCalendarDate, localToday } from '../lib/dates';
import { humanize } from '../lib/words';

/**
 * A pet as its option and its chip read: name, species and breed, then the shelter id, or the day it came in when
 * it has none (two cats called Whiskers brought in by an import are told apart); an intake booked after `today` reads
 * as the day it arrives.
 */
export function pickerLabel(
  record: {
    name: string;
    species: string;
    breed?: readonly string[] | undefined;
    custom_id: string | null;
    intake_date?: string | null | undefined;
  },
  today: string = localToday(),
): string {
  const breed = record.breed?.slice(0, 2).join(', ');
  const intake = calendarDate(record.intake_date);
  const which = record.custom_id
    ? record.custom_id
    : intake
      ? `${intake > today ? 'arrives' : 'in care since'} ${formatCalendarDate(intake)}`
      : undefined;
  return [record.name, humanize(record.species), breed, which].filter(Boolean).join(' · ');
}
