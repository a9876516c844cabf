import { ActionIcon, Popover } from '@mantine/core';
import {
  type CalendarAriaLabels,
  DateInput,
  type DateInputProps,
  DatePicker,
  type DayOfWeek,
} from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { calendarDate, localeDayFirst, localToday, readTypedDate } from '../lib/dates';

/**
 * What both calendars show, readable in both schemes: their arrows named, no greyed days of the months around (2.2:1),
 * no red weekends (3.3:1 on white), which only decorated.
 */
const CALENDAR = {
  ariaLabels: {
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
    monthLevelControl: 'Choose a month',
    yearLevelControl: 'Choose a year',
  } satisfies CalendarAriaLabels,
  hideOutsideDates: true,
  weekendDays: [] as DayOfWeek[],
};

/**
 * How the input shows its day (dayjs format), in the order of the desk's language like every date the desk prints
 * (`formatCalendarDate`): "26 Nov 2026" where the day comes first, "Nov 26, 2026" where the month does.
 */
const valueFormat = () => (localeDayFirst() ? 'D MMM YYYY' : 'MMM D, YYYY');

/**
 * The desk's one input for a date-only field (intake date, a shelter's own date fields): the day shown as the desk
 * prints dates ("26 Nov 2026" or "Nov 26, 2026"), picked from a calendar or typed the ways staff type dates
 * (`readTypedDate`). Its value is the calendar day `YYYY-MM-DD` (the day at the start of a stored value such as
 * `2026-11-26T00:00:00Z`), handed over as that text: it never goes through a time zone. Typed text that names no day
 * is not guessed at: the field keeps the day it had and says what it could not read.
 */
export function CalendarDateInput({
  value,
  onChange,
  onBlur,
  error,
  ...props
}: Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat'> & {
  value: string | null | undefined;
  onChange(day: string): void;
}) {
  const day = calendarDate(value);
  const [unread, setUnread] = useState<string>();
  return (
    <DateInput
      placeholder="Pick a day"
      clearable
      popoverProps={{ withinPortal: true }}
      {...CALENDAR}
      // 24 px: beside the calendar button a smaller target is too close to it (WCAG 2.5.8).
      clearButtonProps={{ style: { width: 24, height: 24, minWidth: 24, minHeight: 24 } }}
      rightSection={
        <CalendarButton
          day={day}
          onPick={onChange}
          label={typeof props.label === 'string' ? props.label : 'the day'}
          disabled={props.disabled}
        />
      }
      rightSectionPointerEvents="all"
      rightSectionWidth={day ? 64 : 36}
      {...props}
      error={
        unread !== undefined
          ? `“${unread}” is not a date the desk can read: type it like 28 Nov 2026 or 2026-11-28.`
          : error
      }
      onBlur={(event) => {
        const typed = event.currentTarget.value.trim();
        setUnread(typed && readTypedDate(typed) === null ? typed : undefined);
        onBlur?.(event);
      }}
      value={day ?? null}
      onChange={(picked) => {
        setUnread(undefined);
        onChange(calendarDate(picked) ?? '');
      }}
      dateParser={(typed) => readTypedDate(typed)}
      valueFormat={valueFormat()}
    />
  );
}

/**
 * The calendar for the keyboard (the input's own calendar follows the mouse and the typed text only): a button that
 * opens a month grid with the focus on the chosen day (or today); arrow keys move by day and week, Tab reaches the
 * previous and next month buttons, Ctrl+arrow up or down changes the year, Enter picks, Escape closes, and the focus
 * comes back to the button.
 */
function CalendarButton({
  day,
  onPick,
  label,
  disabled,
}: {
  day: string | undefined;
  onPick(day: string): void;
  label: string;
  disabled: boolean | undefined;
}) {
  const [opened, setOpened] = useState(false);
  const focused = day ?? localToday();
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      returnFocus
      position="bottom-end"
      shadow="md"
      withinPortal
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Choose ${label.toLowerCase()} on a calendar`}
          onClick={() => setOpened((open) => !open)}
          disabled={disabled}
        >
          <IconCalendar size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <DatePicker
          {...CALENDAR}
          value={day ?? null}
          defaultDate={focused}
          onChange={(picked) => {
            if (picked) onPick(picked);
            setOpened(false);
          }}
          // The focus starts on the chosen day; Escape on a day closes this calendar only, not a drawer around it.
          getDayProps={(date) => ({
            'data-mantine-stop-propagation': true,
            ...(date === focused && { 'data-autofocus': true }),
          })}
        />
      </Popover.Dropdown>
    </Popover>
  );
}
