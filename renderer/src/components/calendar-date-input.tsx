import { ActionIcon, Popover, TextInput } from '@mantine/core';
import {
  type CalendarAriaLabels,
  DateInput,
  type DateInputProps,
  DatePicker,
  type DayOfWeek,
} from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { type FocusEvent, type Ref, useEffect, useRef, useState } from 'react';
import { useSettings } from '../bridge/settings';
import {
  calendarDate,
  calendarWeekStart,
  fieldDay,
  localeDayFirst,
  localToday,
  readTypedDate,
  storedDay,
  unreadableDateMessage,
} from '../lib/dates';

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
 * Whether the focus leaves the input for a button of the same field (Tab from the input reaches its clear or calendar
 * button): when the field then switches between its day input and its text input, those buttons are rendered anew,
 * and the focus must follow to the new calendar button rather than fall to the page.
 */
function towardsOwnButton(event: FocusEvent<HTMLInputElement>): boolean {
  const next = event.relatedTarget;
  return (
    next instanceof Node &&
    next !== event.currentTarget &&
    Boolean(event.currentTarget.parentElement?.contains(next))
  );
}

/**
 * The desk's one input for a date-only field (intake date, a shelter's own date fields): the day shown as the desk
 * prints dates ("26 Nov 2026" or "Nov 26, 2026"), picked from a calendar or typed the ways staff type dates
 * (`readTypedDate`). Its value is the calendar day `YYYY-MM-DD` (the day at the start of a stored value such as
 * `2026-11-26T00:00:00Z`), handed over as that text: it never goes through a time zone. Typed text that names no day
 * is not guessed at, and not dropped either: it becomes the value as typed (so the form refuses to save it, see
 * `fieldDay`), stays in the field with what is wrong with it, and is read again when the field is left.
 */
export function CalendarDateInput({
  value,
  onChange,
  error,
  ...props
}: Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'onBlur'> & {
  value: string | null | undefined;
  onChange(day: string): void;
}) {
  // Drawn again when Settings change how typed dates are read.
  useSettings();
  const day = storedDay(value);
  // Left as text while it is edited, so clearing it to type again does not swap the input under the cursor.
  const [editingText, setEditingText] = useState(false);
  // Typed into since the text input took the focus: what is wrong is said once the typing stops (the field is left).
  const [typing, setTyping] = useState(false);
  // The input that takes the focus after a switch between the two (the other one is gone with the focus).
  const [focusNext, setFocusNext] = useState<'text' | 'date'>();
  const textRef = useRef<HTMLInputElement>(null);
  const calendarRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusNext) return;
    // After a day picked on the calendar, its button (focusing the input would open the input's own calendar).
    (focusNext === 'text' ? textRef : calendarRef).current?.focus();
    setFocusNext(undefined);
  }, [focusNext]);
  // The calendar button is named after the field (a shelter field's label is a node: its aria-label names it).
  const label = typeof props.label === 'string' ? props.label : (props['aria-label'] ?? 'the day');
  const asText = Boolean(value && !day) || editingText;
  const calendarButton = (
    <CalendarButton
      buttonRef={calendarRef}
      day={day}
      onPick={(picked) => {
        if (asText) {
          setEditingText(false);
          setFocusNext('date');
        }
        onChange(picked);
      }}
      label={label}
      disabled={props.disabled}
    />
  );
  /** Text that names no day becomes the value as typed: the form refuses to save it until it is fixed. */
  const keepUnreadable = (text: string, focusText: boolean) => {
    if (!text || readTypedDate(text) !== null) return false;
    if (focusText) setFocusNext('text');
    onChange(text);
    return true;
  };
  if (asText) {
    const typed = value ?? '';
    const { label: shownLabel, description, withAsterisk, required, disabled, placeholder, ...rest } = props;
    const attributes = Object.fromEntries(
      Object.entries(rest).filter(([key]) => key.startsWith('data-') || key.startsWith('aria-')),
    );
    return (
      <TextInput
        {...attributes}
        ref={textRef}
        label={shownLabel}
        description={description}
        withAsterisk={withAsterisk}
        required={required}
        disabled={disabled}
        placeholder={placeholder}
        value={typed}
        onFocus={() => setEditingText(true)}
        onChange={(event) => {
          setTyping(true);
          onChange(event.currentTarget.value);
        }}
        onBlur={(event) => {
          setEditingText(false);
          setTyping(false);
          const read = fieldDay(typed);
          if (read !== null && read !== typed) onChange(read);
          // A readable day, or none, turns this field back into the day input, whose calendar button is another one.
          if ((read !== null || typed.trim() === '') && towardsOwnButton(event)) setFocusNext('date');
        }}
        error={!typing && fieldDay(typed) === null ? `${unreadableDateMessage(typed)}.` : error}
        rightSection={calendarButton}
        rightSectionPointerEvents="all"
        rightSectionWidth={36}
      />
    );
  }
  return (
    <DateInput
      placeholder="Pick a day"
      clearable
      popoverProps={{ withinPortal: true }}
      {...CALENDAR}
      // 24 px: beside the calendar button a smaller target is too close to it (WCAG 2.5.8). Named after the field: a
      // form's own Clear button is "Clear". Not a Tab stop: typed digits meant for the next field landed on it (the
      // keyboard clears the text itself), while the calendar button stays one.
      clearButtonProps={{
        'aria-label': `Clear ${label.toLowerCase()}`,
        tabIndex: -1,
        style: { width: 24, height: 24, minWidth: 24, minHeight: 24 },
      }}
      rightSection={calendarButton}
      rightSectionPointerEvents="all"
      rightSectionWidth={day ? 64 : 36}
      {...props}
      error={error}
      onBlur={(event) => {
        // Unreadable text turns this field into a text input, with a calendar button of its own.
        if (keepUnreadable(event.currentTarget.value.trim(), false) && towardsOwnButton(event))
          setFocusNext('date');
      }}
      // Enter would save the form with the day shown before: the text is kept instead, and says what is wrong.
      onKeyDown={(event) => {
        if (event.key === 'Enter' && keepUnreadable(event.currentTarget.value.trim(), true))
          event.preventDefault();
      }}
      value={day ?? null}
      onChange={(picked) => onChange(calendarDate(picked) ?? '')}
      dateParser={(text) => readTypedDate(text)}
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
  buttonRef,
  day,
  onPick,
  label,
  disabled,
}: {
  buttonRef: Ref<HTMLButtonElement>;
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
          ref={buttonRef}
          variant="subtle"
          color="gray"
          aria-label={`Choose ${label.toLowerCase()} on a calendar`}
          onClick={() => setOpened((open) => !open)}
          disabled={disabled}
        >
          <IconCalendar aria-hidden size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <DatePicker
          {...CALENDAR}
          firstDayOfWeek={calendarWeekStart()}
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
