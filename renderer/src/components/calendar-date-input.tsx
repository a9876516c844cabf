import { DateInput, type DateInputProps } from '@mantine/dates';
import { calendarDate } from '../lib/dates';

/**
 * The desk's one input for a date-only field (intake date, a shelter's own date fields): the day shown as
 * "26 Nov 2026", picked from a calendar or typed. Its value is the calendar day `YYYY-MM-DD` (the day at the start of
 * a stored value such as `2026-11-26T00:00:00Z`), handed over as that text: it never goes through a time zone.
 */
export function CalendarDateInput({
  value,
  onChange,
  ...props
}: Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat'> & {
  value: string | null | undefined;
  onChange(day: string): void;
}) {
  return (
    <DateInput
      placeholder="Pick a day"
      clearable
      popoverProps={{ withinPortal: true }}
      {...props}
      value={calendarDate(value) ?? null}
      onChange={(day) => onChange(calendarDate(day) ?? '')}
      valueFormat="D MMM YYYY"
    />
  );
}
