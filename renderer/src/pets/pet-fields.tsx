import {
  Anchor,
  Divider,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import type { CustomField } from '../../../shared/contract';
import { microchipNote } from '../../../shared/wording/microchip';
import { CalendarDateInput } from '../components/calendar-date-input';
import { CheckboxRow } from '../components/checkbox-row';
import { ChoiceSelect } from '../components/choice-select';
import { CustomFieldInputs } from '../components/custom-field-inputs';
import type { FieldMessages } from '../lib/form-messages';
import { enterPicksOrWaits } from '../lib/picker-enter';
import {
  AGE_OPTIONS,
  COMPATIBILITY_OPTIONS,
  HEALTH_OPTIONS,
  SEX_OPTIONS,
  SIZE_OPTIONS,
  SPECIES_OPTIONS,
  statusOptions,
  TEMPERAMENT_OPTIONS,
} from '../lib/words';
import { ageGroupFieldNote, intakeAheadNote, isNumberField, type PetDraft } from './pet-form';

/**
 * The three lists of words (good with, not good with, temperament): typing narrows the list and highlights its first
 * match, so Enter picks it; Enter on words that match nothing does not send the form; the list opens on a click, an
 * arrow or typing, not on reaching it with Tab (it would cover the fields above).
 */
const CHOICES_PROPS = {
  searchable: true,
  clearable: true,
  selectFirstOptionOnChange: true,
  openOnFocus: false,
  onKeyDown: enterPicksOrWaits,
} as const;

/** The pet form's inputs, shared by Intake and Edit; `errors` are shown under each field. */
export function PetFields({
  draft,
  onChange,
  errors,
  customFields,
  statuses,
  compact = false,
  shelterIdSuggestion,
  onNumberLeft,
  afterBasics,
}: {
  draft: PetDraft;
  onChange(next: PetDraft): void;
  errors: FieldMessages;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  /** Edit drawer: one column. */
  compact?: boolean;
  /** The shelter id that would come next on this desk, offered while the field is empty (a new pet). */
  shelterIdSuggestion?: string | undefined;
  /** A number field was left: its message is said now, not only at Save (see `numberFieldMessage`). */
  onNumberLeft?(key: keyof PetDraft & string): void;
  /** Shown between The basics and Status (the photos: taken once the animal has a name). */
  afterBasics?: ReactNode;
}) {
  const set = <K extends keyof PetDraft>(key: K, value: PetDraft[K]) => onChange({ ...draft, [key]: value });
  const text = (key: keyof PetDraft & string, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={draft[key] as string}
      onChange={(event) => set(key, event.currentTarget.value as never)}
      onBlur={isNumberField(key) ? () => onNumberLeft?.(key) : undefined}
      error={errors[key]}
      data-field={key}
      {...extra}
    />
  );
  const day = (key: 'intake_date' | 'age_birthday', label: string, description: string) => (
    <CalendarDateInput
      label={label}
      description={description}
      value={draft[key]}
      onChange={(picked) => set(key, picked)}
      error={errors[key]}
      data-field={key}
    />
  );
  const select = (
    key: 'species' | 'age_category' | 'sex' | 'size' | 'health' | 'status',
    label: string,
    data: { value: string; label: string }[],
  ) => {
    const common = {
      label,
      withAsterisk: true,
      'aria-required': true,
      value: draft[key] || null,
      onChange: (value: string | null) => set(key, value ?? ''),
      error: errors[key],
      'data-field': key,
      placeholder: 'Choose…',
      allowDeselect: false,
      comboboxProps: { withinPortal: true },
    } as const;
    // A short list is chosen by its first letters, a long one (statuses) by typing a word into it.
    return data.length > 8 ? (
      <Select {...common} data={data} searchable />
    ) : (
      <ChoiceSelect {...common} data={data} />
    );
  };
  const cols = compact ? { base: 1, sm: 2 } : { base: 1, sm: 2, md: 3 };
  const ageGroup = ageGroupFieldNote(draft);

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Title order={4}>The basics</Title>
        <SimpleGrid cols={cols} spacing="sm">
          {text('name', 'Name', {
            withAsterisk: true,
            'aria-required': true,
            placeholder: 'A temporary name is fine',
          })}
          {select('species', 'Species', SPECIES_OPTIONS)}
          {select('age_category', 'Age', AGE_OPTIONS)}
          {select('sex', 'Sex', SEX_OPTIONS)}
          {select('size', 'Size', SIZE_OPTIONS)}
          {select('health', 'Health', HEALTH_OPTIONS)}
        </SimpleGrid>
      </Stack>
      {afterBasics}
      <Stack gap="sm">
        <Title order={4}>Status</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {select('status', 'Status', statusOptions(statuses))}
          {text('status_change_notes', 'Status notes', { placeholder: 'Why the status changes (optional)' })}
        </SimpleGrid>
        <CheckboxRow
          gap="xl"
          boxes={[
            { key: 'show_public', label: 'Show on the public list' },
            { key: 'spayed', label: 'Spayed / neutered' },
          ]}
          checked={draft}
          onChange={set}
        />
        {draft.status === 'available' && !draft.show_public && (
          <Text size="sm" c="dimmed">
            Adopters and your website see an available pet only when “Show on the public list” is ticked.
          </Text>
        )}
      </Stack>
      <Divider />
      <Stack gap="sm">
        <Title order={4}>Details</Title>
        <SimpleGrid cols={cols} spacing="sm">
          {text('breed', 'Breed', { description: 'Separate several with commas' })}
          {text('color', 'Colour', { description: 'Separate several with commas' })}
          {text('microchip_id', 'Microchip', {
            description: microchipNote(draft.microchip_id) ?? 'Digits on the scanner',
          })}
          {text('custom_id', 'Shelter id', {
            description:
              shelterIdSuggestion && !draft.custom_id.trim() ? (
                <>
                  Your own reference.{' '}
                  <Anchor
                    component="button"
                    type="button"
                    size="xs"
                    onClick={() => set('custom_id', shelterIdSuggestion)}
                  >
                    Use {shelterIdSuggestion}
                  </Anchor>
                  , the next number on this desk
                </>
              ) : (
                'Your own reference, e.g. RAR-000123'
              ),
          })}
          {text('adoption_fee', 'Adoption fee', { description: 'Leave empty to use the fee rules' })}
          {day(
            'intake_date',
            'Intake date',
            intakeAheadNote(draft.intake_date) ?? 'The day it arrived at the shelter',
          )}
          {day(
            'age_birthday',
            'Birthday',
            (ageGroup?.field === 'age_birthday' && ageGroup.note) ||
              'If known to the day; otherwise give the age',
          )}
          {text('age_years', 'Age (years)', {
            description: ageGroup?.field === 'age_years' ? ageGroup.note : undefined,
          })}
          {text('age_months', 'Age (months)')}
          {text('weight', 'Weight', { placeholder: 'e.g. 12 kg' })}
          {text('coat_length', 'Coat')}
        </SimpleGrid>
        <Textarea
          label="Description"
          autosize
          minRows={3}
          value={draft.description}
          onChange={(event) => set('description', event.currentTarget.value)}
          error={errors.description}
        />
        <SimpleGrid cols={{ base: 1, sm: compact ? 1 : 3 }} spacing="sm">
          <MultiSelect
            label="Good with"
            data={COMPATIBILITY_OPTIONS}
            value={draft.good_with}
            onChange={(value) => set('good_with', value)}
            error={errors.good_with}
            {...CHOICES_PROPS}
          />
          <MultiSelect
            label="Not good with"
            data={COMPATIBILITY_OPTIONS}
            value={draft.bad_with}
            onChange={(value) => set('bad_with', value)}
            error={errors.bad_with}
            {...CHOICES_PROPS}
          />
          <MultiSelect
            label="Temperament"
            data={TEMPERAMENT_OPTIONS}
            value={draft.temperaments}
            onChange={(value) => set('temperaments', value)}
            error={errors.temperaments}
            {...CHOICES_PROPS}
          />
        </SimpleGrid>
      </Stack>
      {customFields.some((field) => !field.hidden) && (
        <>
          <Divider />
          <Stack gap="sm">
            <Title order={4}>Your shelter’s fields</Title>
            <CustomFieldInputs
              fields={customFields}
              values={draft.custom_field_data}
              onChange={(next) => set('custom_field_data', next)}
              errors={errors}
            />
          </Stack>
        </>
      )}
    </Stack>
  );
}
