import type { CustomField } from '../../../shared/contract';
import {
  type ColumnMapping,
  columnsSharingTargets,
  type ImportColumn,
  type ImportKind,
  type ImportTarget,
} from '../../../shared/desk-api/import';
import { listInWords } from '../../../shared/wording/lists';

/** How a field's cells are read (see values.ts). */
export type ValueKind =
  | 'text'
  | 'long-text'
  | 'long-number'
  | 'species'
  | 'sex'
  | 'size'
  | 'age'
  | 'health'
  | 'status'
  | 'boolean'
  | 'date'
  | 'weight'
  | 'list'
  | 'good-with'
  | 'temperaments'
  | 'object'
  | 'fee'
  | 'number'
  | 'email'
  | 'person-status';

export interface FieldSpec {
  field: string;
  label: string;
  kind: ValueKind;
  /** Other names for the header, as other shelter systems and spreadsheets write them (compared as `headerKey`). */
  aliases: string[];
  required?: boolean;
  /** Longest text accepted, in characters (a longer cell is a mistake: a whole note pasted into a name). */
  max?: number;
}

/** Columns the desk reads but never writes: kept by the server (ids, stamps) or computed by it. */
const SERVER_COLUMNS = [
  'created_at',
  'updated_at',
  'image_url',
  'global_adoption_fee',
  'adopted_on',
  'adopted_by',
  'primary_veterinarian',
  'tags',
];

const NAME_MAX = 200;
const SHORT_MAX = 500;
const LONG_MAX = 20_000;

export const PET_FIELDS: FieldSpec[] = [
  { field: 'id', label: 'Record id (matches this desk)', kind: 'text', aliases: ['uuid'], max: 64 },
  {
    field: 'name',
    label: 'Name',
    kind: 'text',
    aliases: ['animalname', 'petname', 'animal'],
    required: true,
    max: NAME_MAX,
  },
  {
    field: 'species',
    label: 'Species',
    kind: 'species',
    aliases: ['animaltypename', 'animaltype', 'speciesname', 'type', 'animalspecies'],
    required: true,
  },
  {
    field: 'breed',
    label: 'Breed',
    kind: 'list',
    aliases: ['breedname', 'breeds', 'primarybreed'],
    max: SHORT_MAX,
  },
  {
    field: 'color',
    label: 'Colour',
    kind: 'list',
    aliases: ['colour', 'colors', 'colours', 'basecolour', 'basecolourname', 'colorname', 'primarycolor'],
    max: SHORT_MAX,
  },
  { field: 'sex', label: 'Sex', kind: 'sex', aliases: ['gender', 'sexname'] },
  { field: 'size', label: 'Size', kind: 'size', aliases: ['sizename', 'animalsize'] },
  { field: 'age_category', label: 'Age group', kind: 'age', aliases: ['agegroup', 'agecategory', 'age'] },
  { field: 'health', label: 'Health', kind: 'health', aliases: ['healthstatus'] },
  {
    field: 'status',
    label: 'Status',
    kind: 'status',
    aliases: ['animalstatus', 'statusname', 'currentstatus'],
  },
  {
    field: 'description',
    label: 'Description',
    kind: 'long-text',
    aliases: ['animalcomments', 'comments', 'bio', 'about', 'webdescription', 'animaldescription'],
    max: LONG_MAX,
  },
  {
    field: 'intake_date',
    label: 'Intake date',
    kind: 'date',
    aliases: ['datebroughtin', 'intake', 'broughtin', 'datein', 'intakedate', 'arrivaldate'],
  },
  { field: 'outcome_date', label: 'Outcome date', kind: 'date', aliases: ['outcome', 'dateout'] },
  {
    field: 'microchip_id',
    label: 'Microchip',
    kind: 'long-number',
    aliases: [
      'microchip',
      'microchipnumber',
      'microchipno',
      'identichipnumber',
      'chip',
      'chipnumber',
      'chipid',
    ],
    max: 50,
  },
  {
    field: 'custom_id',
    label: 'Shelter id',
    kind: 'text',
    aliases: ['sheltercode', 'animalid', 'shelterid', 'code', 'animalcode', 'internalid', 'petid'],
    max: 100,
  },
  {
    field: 'weight',
    label: 'Weight (kg)',
    kind: 'weight',
    aliases: ['weightkg', 'weightkgs', 'weightlb', 'weightlbs'],
  },
  {
    field: 'spayed',
    label: 'Spayed / neutered',
    kind: 'boolean',
    aliases: ['neutered', 'spayedneutered', 'neuteredspayed', 'fixed', 'altered', 'spayneuter'],
  },
  {
    field: 'age_birthday',
    label: 'Birthday',
    kind: 'date',
    aliases: ['dateofbirth', 'dob', 'birthdate', 'birthday', 'born'],
  },
  { field: 'age_years', label: 'Age (years)', kind: 'text', aliases: ['ageyears', 'years'], max: 20 },
  { field: 'age_months', label: 'Age (months)', kind: 'text', aliases: ['agemonths', 'months'], max: 20 },
  {
    field: 'coat_length',
    label: 'Coat length',
    kind: 'text',
    aliases: ['coat', 'coattype', 'hairlength'],
    max: 50,
  },
  { field: 'good_with', label: 'Good with', kind: 'good-with', aliases: ['goodwith'] },
  { field: 'bad_with', label: 'Not good with', kind: 'good-with', aliases: ['badwith', 'notgoodwith'] },
  { field: 'temperaments', label: 'Temperaments', kind: 'temperaments', aliases: ['temperament'] },
  { field: 'special_needs', label: 'Special needs', kind: 'list', aliases: ['specialneeds'], max: SHORT_MAX },
  {
    field: 'image_urls',
    label: 'Photo addresses',
    kind: 'list',
    aliases: ['photos', 'photourls', 'imageurls'],
  },
  {
    field: 'show_public',
    label: 'Shown publicly',
    kind: 'boolean',
    aliases: ['public', 'showpublic', 'listed'],
  },
  { field: 'adoption_fee', label: 'Adoption fee', kind: 'fee', aliases: ['fee', 'adoptionfee'], max: 50 },
  {
    field: 'status_change_notes',
    label: 'Status notes',
    kind: 'long-text',
    aliases: ['statusnotes'],
    max: LONG_MAX,
  },
  {
    field: 'location_found',
    label: 'Where found',
    kind: 'text',
    aliases: ['foundat', 'locationfound'],
    max: SHORT_MAX,
  },
  {
    field: 'reason_for_surrender',
    label: 'Reason for surrender',
    kind: 'long-text',
    aliases: ['reasonforentry', 'surrenderreason', 'entryreason', 'reasonforsurrender'],
    max: LONG_MAX,
  },
  { field: 'custom_field_data', label: 'Custom fields (JSON)', kind: 'object', aliases: [] },
];

const PERSON_FIELDS: FieldSpec[] = [
  { field: 'id', label: 'Record id (matches this desk)', kind: 'text', aliases: ['uuid'], max: 64 },
  {
    field: 'name',
    label: 'Name',
    kind: 'text',
    aliases: ['ownername', 'fullname', 'personname', 'adoptername', 'fostername', 'contactname'],
    required: true,
    max: NAME_MAX,
  },
  {
    field: 'first_name',
    label: 'First name',
    kind: 'text',
    aliases: ['ownerforenames', 'forename', 'firstname', 'givenname'],
    max: NAME_MAX,
  },
  {
    field: 'last_name',
    label: 'Last name',
    kind: 'text',
    aliases: ['ownersurname', 'surname', 'lastname', 'familyname'],
    max: NAME_MAX,
  },
  {
    field: 'email',
    label: 'Email',
    kind: 'email',
    aliases: ['emailaddress', 'mail', 'owneremail'],
    max: 254,
  },
  {
    field: 'phone',
    label: 'Phone',
    kind: 'long-number',
    aliases: [
      'telephone',
      'mobiletelephone',
      'hometelephone',
      'mobile',
      'cell',
      'phonenumber',
      'worktelephone',
    ],
    max: 50,
  },
  {
    field: 'address',
    label: 'Address',
    kind: 'long-text',
    aliases: ['owneraddress', 'streetaddress', 'homeaddress'],
    max: SHORT_MAX,
  },
  { field: 'status', label: 'Status', kind: 'person-status', aliases: [] },
  {
    field: 'status_change_notes',
    label: 'Notes',
    kind: 'long-text',
    aliases: ['notes', 'comments'],
    max: 2000,
  },
  { field: 'capacity', label: 'Capacity (fosters)', kind: 'number', aliases: ['fostercapacity', 'places'] },
  { field: 'custom_field_data', label: 'Custom fields (JSON)', kind: 'object', aliases: [] },
];

/** The fields of a kind of import. */
export function fieldsOf(kind: ImportKind): FieldSpec[] {
  return kind === 'pets'
    ? PET_FIELDS
    : PERSON_FIELDS.filter((spec) => kind === 'fosters' || spec.field !== 'capacity');
}

/**
 * A header or name as compared: lower case, without spaces, punctuation or accents ("Animal Name", "animal_name"
 * and "AnimalName" are the same). Letters of other scripts are kept.
 */
export function headerKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * What joins the cells of several columns the person sent to one field, in the file's order: an address split into
 * street, city and zip; a second breed column; two columns of notes. Undefined for a field that takes one column.
 */
export function joinerOf(spec: FieldSpec): string | undefined {
  if (spec.kind === 'list') return ', ';
  if (spec.kind === 'long-text') return spec.field === 'address' ? ', ' : '\n';
  return undefined;
}

/**
 * The problems of columns sent to the same field: several columns are joined into a text or a list field, and refused
 * for any other (which of two dates, two species or two names would be meant?). In words.
 */
export function sharedTargets(
  kind: ImportKind,
  columns: readonly ImportColumn[],
  customFields: readonly CustomField[],
): string[] {
  const specs = new Map(fieldsOf(kind).map((spec) => [spec.field, spec]));
  return columnsSharingTargets(columns)
    .filter(({ target }) => {
      const spec = specs.get(target);
      return spec === undefined || joinerOf(spec) === undefined;
    })
    .map(({ target, headers }) => {
      const field = specs.get(target)?.label.toLowerCase() ?? customFieldWords(target, customFields);
      const quoted = headers.map((header) => `"${header}"`);
      const [all, others] = headers.length === 2 ? ['both', 'the other'] : ['all', 'the others'];
      return `${listInWords(quoted)} ${all} go to ${field}, which takes one column: keep one and ignore ${others}`;
    });
}

/** A custom field as messages name it: by the label the shelter gave it, else by its key. */
function customFieldWords(target: string, customFields: readonly CustomField[]): string {
  const key = target.slice(CUSTOM_PREFIX.length);
  const label = customFields.find((field) => field.field_key === key)?.label;
  return label ? `the custom field "${label}"` : `the custom field ${key}`;
}

export const IGNORE = 'ignore';
export const CUSTOM_PREFIX = 'custom:';

/**
 * Where each header goes: what the person chose (by header), else a field whose name or alias matches, else a
 * custom field whose key or label matches, else nothing (ignored). A header the person maps is marked `chosen`.
 */
export function matchColumns(
  kind: ImportKind,
  headers: readonly string[],
  customFields: readonly CustomField[],
  chosen: ColumnMapping = {},
): ImportColumn[] {
  const byKey = new Map<string, string>();
  for (const spec of fieldsOf(kind)) {
    for (const name of [spec.field, ...spec.aliases]) {
      const key = headerKey(name);
      if (!byKey.has(key)) byKey.set(key, spec.field);
    }
  }
  for (const column of SERVER_COLUMNS) byKey.set(headerKey(column), IGNORE);
  for (const field of customFields) {
    for (const name of [field.field_key, field.label]) {
      const key = headerKey(name);
      if (!byKey.has(key)) byKey.set(key, `${CUSTOM_PREFIX}${field.field_key}`);
    }
  }
  // A field's label, as the mapping screen shows it, names it too, after every name, alias and custom field.
  for (const spec of fieldsOf(kind)) {
    const key = headerKey(spec.label);
    if (!byKey.has(key)) byKey.set(key, spec.field);
  }
  const chosenByKey = new Map(Object.entries(chosen).map(([header, target]) => [headerKey(header), target]));
  const choiceOf = (header: string) => chosen[header] ?? chosenByKey.get(headerKey(header));
  // The columns not chosen are matched first: the first column that matches a field fills it, a second one with the
  // same meaning is left out. The choices are then laid over that, whatever the order of the columns.
  const taken = new Set<string>();
  const matched = headers.map((header) => {
    if (choiceOf(header) !== undefined) return undefined;
    const target = byKey.get(headerKey(header));
    if (!target || (target !== IGNORE && taken.has(target))) return undefined;
    if (target !== IGNORE) taken.add(target);
    return target;
  });
  const chosenTargets = new Set(
    headers.map(choiceOf).filter((target) => target !== undefined && target !== IGNORE),
  );
  const joins = (target: string) => {
    const spec = fieldsOf(kind).find((field) => field.field === target);
    return spec !== undefined && joinerOf(spec) !== undefined;
  };
  return headers.map((header, index) => {
    const own = choiceOf(header);
    if (own !== undefined) return { header, target: own, source: 'chosen' as const };
    const target = matched[index];
    // A column chosen for a field that takes one column pushes out the one matched to it (a text or list field
    // takes both, joined).
    if (!target || (target !== IGNORE && chosenTargets.has(target) && !joins(target))) {
      return { header, target: IGNORE, source: 'unmatched' as const };
    }
    return { header, target, source: 'matched' as const };
  });
}

/** Whether a column mapped to `target` holds dates, read in the order of day and month the person chose. */
export function targetReadsDates(
  kind: ImportKind,
  customFields: readonly CustomField[],
  target: string,
): boolean {
  if (target.startsWith(CUSTOM_PREFIX)) {
    const key = target.slice(CUSTOM_PREFIX.length);
    return customFields.some((field) => field.field_key === key && field.field_type === 'date');
  }
  return fieldsOf(kind).some((spec) => spec.field === target && spec.kind === 'date');
}

/** The choices of the mapping screen: every field, each custom field, and "ignore". */
export function importTargets(kind: ImportKind, customFields: readonly CustomField[]): ImportTarget[] {
  const readsDates = (value: string) => targetReadsDates(kind, customFields, value);
  return [
    ...fieldsOf(kind).map((spec) => ({
      value: spec.field,
      label: spec.label,
      required: spec.required === true,
      readsDates: readsDates(spec.field),
    })),
    ...customFields.map((field) => ({
      value: `${CUSTOM_PREFIX}${field.field_key}`,
      label: `Custom field: ${field.label}`,
      required: false,
      readsDates: readsDates(`${CUSTOM_PREFIX}${field.field_key}`),
    })),
    { value: IGNORE, label: 'Ignore this column', required: false, readsDates: false },
  ];
}

/** Checks that every target names something known. @returns the problems, in words. */
export function unknownTargets(
  kind: ImportKind,
  columns: readonly ImportColumn[],
  customFields: readonly CustomField[],
): string[] {
  const known = new Set(importTargets(kind, customFields).map((target) => target.value));
  // A custom key the shelter has not defined yet is still kept: custom field data takes any key.
  const isCustom = (target: string) => /^custom:[\p{L}\p{N}_.-]+$/u.test(target);
  return columns
    .filter((column) => !known.has(column.target) && !isCustom(column.target))
    .map(
      (column) =>
        `"${column.header}" is mapped to "${column.target}", which is not a field of ${kind}; use a field name, ` +
        'custom:<key> or ignore',
    );
}
