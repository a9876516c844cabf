import {
  type CustomField,
  PERSON_CREATE_STATUSES,
  personCreateSchema,
  petCreateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import type { ImportColumn, ImportKind, ImportRejection } from '../../../shared/desk-api/import';
import { ageGroupOfMonths, calendarMonthsBetween } from '../../../shared/wording/age';
import { CUSTOM_PREFIX, type FieldSpec, fieldsOf, headerKey, IGNORE, joinerOf } from './fields';
import { cellValue, readList, readValue, type ValueContext } from './values';
import { type ReadValue, readDate } from './written-dates';

/** A row read into the body of a create request, or the problems that keep it out. */
export type BuiltRecord =
  | {
      ok: true;
      body: Record<string, unknown>;
      id: string | undefined;
      defaulted: string[];
      /** A person's status no create request may carry (denied, suspended, blocked), left out of `body`. */
      staffStatus?: { status: string; column: string };
    }
  | { ok: false; problems: ImportRejection[] };

export interface RecordPlan {
  kind: ImportKind;
  columns: ImportColumn[];
  customFields: readonly CustomField[];
  values: ValueContext;
  /** Today on this desk's calendar (`YYYY-MM-DD`), for the age group from a birthday. */
  today: string;
  /** What pets get whose row does not say whether they are shown publicly (see `ImportOptions.showPublic`). */
  showPublic: boolean;
}

/** Values a pet gets for a required field no column fills (the report lists those used). */
export const PET_DEFAULTS: Record<string, string> = {
  sex: 'unknown',
  size: 'medium',
  age_category: 'adult',
  health: 'unknown',
  status: 'available',
};

/**
 * Fields of the plan with no column, with what every record gets: the defaults (the age group from the birthday when
 * there is one), `show_public` as chosen (false unless the person chose to show the pets publicly), and `spayed`
 * false (the API's own default, said so that nobody reads it as known).
 */
export function defaultedFields(plan: RecordPlan): Record<string, string> {
  if (plan.kind !== 'pets') return {};
  const mapped = new Set(plan.columns.map((column) => column.target));
  return Object.fromEntries([
    ...Object.entries(PET_DEFAULTS)
      .filter(([field]) => !mapped.has(field))
      .map(([field, value]) => [
        field,
        field === 'age_category' && mapped.has('age_birthday') ? 'from the birthday, else adult' : value,
      ]),
    ...(mapped.has('show_public') ? [] : [['show_public', String(plan.showPublic)]]),
    ...(mapped.has('spayed') ? [] : [['spayed', 'false']]),
  ]);
}

/** The age group of a pet born on `birthday` (calendar days compared as text, never through a time zone). */
export function ageGroupFrom(birthday: string, today: string): string {
  return ageGroupOfMonths(calendarMonthsBetween(birthday, today));
}

/** The options of a select field as the shelter spelled them (strings, or objects with a value or label). */
export function fieldOptions(field: CustomField): string[] {
  if (!Array.isArray(field.options)) return [];
  return field.options.flatMap((option: unknown) => {
    if (typeof option === 'string') return [option];
    if (option && typeof option === 'object') {
      const { value, label } = option as { value?: unknown; label?: unknown };
      if (typeof value === 'string') return [value];
      if (typeof label === 'string') return [label];
    }
    return [];
  });
}

/**
 * A select field's value: one of its options, matched as statuses are (ignoring case, spaces and punctuation) and
 * kept as the shelter spells it; a multi-select takes several, as a list (a JSON array, or split by , ; | /).
 */
function optionValue(field: CustomField, text: string, multiple: boolean): ReadValue {
  const options = fieldOptions(field);
  if (options.length === 0) return multiple ? { ok: true, value: readList(text) } : { ok: true, value: text };
  const byKey = new Map(options.map((option) => [headerKey(option), option]));
  const refuse = (value: string): ReadValue => ({
    ok: false,
    reason: `"${value}" is not one of the options of ${field.label}: ${options.join(', ')}`,
  });
  if (!multiple)
    return byKey.get(headerKey(text)) !== undefined
      ? { ok: true, value: byKey.get(headerKey(text)) }
      : refuse(text);
  // An option may itself hold a separator ("Dogs / cats"): the whole cell is tried first.
  const whole = byKey.get(headerKey(text));
  if (whole !== undefined) return { ok: true, value: [whole] };
  const values: string[] = [];
  for (const part of readList(text)) {
    const option = byKey.get(headerKey(part));
    if (option === undefined) return refuse(part);
    if (!values.includes(option)) values.push(option);
  }
  return { ok: true, value: values };
}

/**
 * Select values inside a JSON cell of custom fields (what `export` writes) checked against the options too, each
 * kept as the shelter spells its option. @returns the problems, in words.
 */
function checkOptions(data: Record<string, unknown>, fields: ReadonlyMap<string, CustomField>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const field = fields.get(key);
    if (!field || (field.field_type !== 'select' && field.field_type !== 'multiselect')) continue;
    if (value === null || value === '') continue;
    const text = Array.isArray(value) ? JSON.stringify(value.map(String)) : String(value);
    const read = optionValue(field, text, field.field_type === 'multiselect');
    if (read.ok) data[key] = read.value;
    else problems.push(`${key}: ${read.reason}`);
  }
  return problems;
}

function customValue(field: CustomField | undefined, text: string, values: ValueContext): ReadValue {
  const type = field?.field_type ?? 'text';
  if (type === 'boolean' || type === 'checkbox') return readValue('boolean', text, values);
  if (field && (type === 'select' || type === 'multiselect')) {
    return optionValue(field, text, type === 'multiselect');
  }
  if (type === 'number') {
    const number = Number(text.replace(',', '.'));
    return Number.isFinite(number)
      ? { ok: true, value: number }
      : { ok: false, reason: `"${text}" is not a number` };
  }
  if (type === 'date') {
    const day = readDate(text, values.dateFormat, values.datesUndecided);
    // The shelter's own date fields hold calendar days alone.
    return day.ok ? { ok: true, value: String(day.value).slice(0, 10) } : day;
  }
  return { ok: true, value: text };
}

/** A cell the import refuses, with what the person can choose to mend it where there is such a choice. */
function rejection(line: number, column: string, read: ReadValue & { ok: false }): ImportRejection {
  return { line, column, reason: read.reason, ...(read.fix && { fix: read.fix }) };
}

/**
 * Reads one row into a create request for the plan's kind: each mapped cell normalized (see values.ts), checked
 * for length, then the whole body checked with the same zod schema the API and the desk's forms use. Every problem
 * is named by the column it came from.
 */
export function buildRecord(plan: RecordPlan, line: number, cells: readonly string[]): BuiltRecord {
  const specs = new Map<string, FieldSpec>(fieldsOf(plan.kind).map((spec) => [spec.field, spec]));
  const customByKey = new Map(plan.customFields.map((field) => [field.field_key, field]));
  const problems: ImportRejection[] = [];
  const body: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const columnOf = new Map<string, string>();
  /** Fields whose cell was refused: the record's own check then says nothing more of them. */
  const refused = new Set<string>();
  const columnsPerTarget = new Map<string, number>();
  for (const column of plan.columns) {
    columnsPerTarget.set(column.target, (columnsPerTarget.get(column.target) ?? 0) + 1);
  }
  /** Cells of the columns sent to one text or list field, joined after the row is read (see `joinerOf`). */
  const toJoin = new Map<string, { spec: FieldSpec; headers: string[]; texts: string[] }>();
  const take = (spec: FieldSpec, header: string, text: string) => {
    const length = [...text].length;
    if (spec.max !== undefined && length > spec.max) {
      problems.push({
        line,
        column: header,
        reason: `is ${length} characters long; ${spec.label.toLowerCase()} takes at most ${spec.max}`,
      });
      refused.add(spec.field);
      return;
    }
    const weightUnit = /lb|pound/i.test(header) ? 'lb' : 'kg';
    const read = readValue(spec.kind, text, { ...plan.values, weightUnit });
    if (read.ok) body[spec.field] = read.value;
    else {
      problems.push(rejection(line, header, read));
      refused.add(spec.field);
    }
  };
  plan.columns.forEach((column, index) => {
    if (column.target === IGNORE) return;
    if (!columnOf.has(column.target)) columnOf.set(column.target, column.header);
    const text = cellValue(cells[index]);
    if (text === '') return;
    if (column.target.startsWith(CUSTOM_PREFIX)) {
      const key = column.target.slice(CUSTOM_PREFIX.length);
      const read = customValue(customByKey.get(key), text, plan.values);
      if (read.ok) custom[key] = read.value;
      else {
        problems.push(rejection(line, column.header, read));
        refused.add('custom_field_data');
      }
      return;
    }
    const spec = specs.get(column.target);
    if (!spec) return;
    if ((columnsPerTarget.get(spec.field) ?? 0) > 1 && joinerOf(spec) !== undefined) {
      const parts = toJoin.get(spec.field) ?? { spec, headers: [], texts: [] };
      parts.headers.push(column.header);
      parts.texts.push(text);
      toJoin.set(spec.field, parts);
      return;
    }
    take(spec, column.header, text);
  });
  for (const { spec, headers, texts } of toJoin.values()) {
    take(spec, headers.join(' + '), texts.join(joinerOf(spec)));
  }
  if (body.custom_field_data !== undefined) {
    const column = columnOf.get('custom_field_data') ?? '';
    const data = body.custom_field_data as Record<string, unknown>;
    for (const problem of checkOptions(data, customByKey)) problems.push({ line, column, reason: problem });
  }
  if (Object.keys(custom).length > 0) {
    body.custom_field_data = {
      ...(body.custom_field_data as Record<string, unknown> | undefined),
      ...custom,
    };
  }
  const id = typeof body.id === 'string' ? body.id : undefined;
  delete body.id;
  const defaulted = plan.kind === 'pets' ? fillPetDefaults(body, plan) : [];
  if (plan.kind !== 'pets') {
    const parts = [body.first_name, body.last_name].filter((part) => typeof part === 'string');
    if (body.name === undefined && parts.length > 0) body.name = parts.join(' ');
    delete body.first_name;
    delete body.last_name;
    body.type = plan.kind === 'adopters' ? 'adopter' : 'foster';
  }
  let staffStatus: { status: string; column: string } | undefined;
  if (plan.kind !== 'pets' && staffOnlyStatus(body.status)) {
    staffStatus = { status: body.status as string, column: columnOf.get('status') ?? 'status' };
    delete body.status;
  }
  // Checked as the API checks it even when a cell was refused, so that one check names every problem of the row.
  const parsed = (plan.kind === 'pets' ? petCreateSchema : personCreateSchema).safeParse(body);
  if (!parsed.success) {
    for (const error of toFieldErrors(parsed.error, body)) {
      const field = error.field.split(/[.[]/)[0] ?? error.field;
      if (refused.has(field) || (field === 'name' && (refused.has('first_name') || refused.has('last_name'))))
        continue;
      const column = columnOf.get(field) ?? '';
      const reason =
        error.message === 'is required'
          ? column === ''
            ? `${error.field} is missing: no column gives it`
            : 'is empty'
          : `${error.field} ${error.message}`;
      problems.push({ line, column, reason });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (staffStatus) {
    // Matched against the desk without it; a new record cannot take it (see `staffStatusReason`).
    return { ok: true, body: { ...body, status: staffStatus.status }, id, defaulted, staffStatus };
  }
  return { ok: true, body, id, defaulted };
}

/** A person status that only the shelter's staff set (denied, suspended, blocked): the API refuses it on create. */
function staffOnlyStatus(status: unknown): boolean {
  return typeof status === 'string' && !PERSON_CREATE_STATUSES.some((allowed) => allowed === status);
}

/** Why a new person with a staff decision as status is not imported, and what to do instead. */
export function staffStatusReason(status: string): string {
  return (
    `"${status}" is a decision of the shelter's staff, which a new person cannot start with: change it in ` +
    `the file to ${PERSON_CREATE_STATUSES.join(', ')} and set "${status}" again after the import (the person's ` +
    '"Change status…" on the desk that runs the shelter), or skip this row'
  );
}

/**
 * Fills the required fields no cell gave, and whether the pet is shown publicly (the API's default is yes, which
 * would publish a whole shelter's records unasked); returns their names (an update leaves them as they are).
 */
function fillPetDefaults(body: Record<string, unknown>, plan: RecordPlan): string[] {
  const filled: string[] = [];
  for (const [field, value] of Object.entries(PET_DEFAULTS)) {
    if (body[field] !== undefined) continue;
    filled.push(field);
    body[field] =
      field === 'age_category' && typeof body.age_birthday === 'string'
        ? ageGroupFrom(body.age_birthday, plan.today)
        : value;
  }
  if (body.show_public === undefined) {
    filled.push('show_public');
    body.show_public = plan.showPublic;
  }
  // What the API gives a new pet that does not say; named here so that the report can say it.
  if (body.spayed === undefined) {
    filled.push('spayed');
    body.spayed = false;
  }
  return filled;
}
