import {
  Badge,
  Checkbox,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { CustomField } from '../../../shared/contract';
import type { FieldMessages } from '../lib/form-messages';
import { customFieldMessageKey } from '../lib/required-custom-fields';
import { CalendarDateInput } from './calendar-date-input';
import { ChoiceSelect } from './choice-select';

function optionList(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options
    .map((option) => {
      if (typeof option === 'string') return option;
      if (option && typeof option === 'object' && 'value' in option) return String(option.value);
      return null;
    })
    .filter((option): option is string => option !== null);
}

/**
 * Inputs for the shelter's own fields, grouped by section; hidden fields are left out. `errors` are the form's
 * messages; a field's is under `customFieldMessageKey`.
 */
export function CustomFieldInputs({
  fields,
  values,
  onChange,
  errors,
}: {
  fields: readonly CustomField[];
  values: Record<string, unknown>;
  onChange(next: Record<string, unknown>): void;
  errors?: FieldMessages;
}) {
  const visible = fields.filter((field) => !field.hidden);
  if (visible.length === 0) return null;
  const sections = [...new Set(visible.map((field) => field.section ?? 'Other'))];
  const set = (key: string, value: unknown) => onChange({ ...values, [key]: value });

  return (
    <Stack gap="md">
      {sections.map((section) => (
        <Stack key={section} gap="xs">
          <Text size="sm" fw={600} c="dimmed">
            {section}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {visible
              .filter((field) => (field.section ?? 'Other') === section)
              .map((field) => {
                const label = (
                  <>
                    {field.label}
                    {field.internal_only && (
                      <Badge size="xs" variant="outline" color="gray" ml={6}>
                        Staff only
                      </Badge>
                    )}
                  </>
                );
                const messageKey = customFieldMessageKey(field.field_key);
                const common = {
                  label,
                  description: field.help_text ?? undefined,
                  withAsterisk: field.required,
                  'aria-required': field.required,
                  'aria-label': field.label,
                  error: errors?.[messageKey],
                  'data-field': messageKey,
                };
                const value = values[field.field_key];
                switch (field.field_type) {
                  case 'select': {
                    const options = optionList(field.options);
                    const chosen = {
                      ...common,
                      value: typeof value === 'string' ? value : null,
                      onChange: (next: string | null) => set(field.field_key, next ?? ''),
                      placeholder: 'Choose…',
                      clearable: true,
                    };
                    // A short list is chosen by its first letters, a long one by typing a word into it.
                    return options.length > 8 ? (
                      <Select key={field.field_key} {...chosen} data={options} searchable />
                    ) : (
                      <ChoiceSelect
                        key={field.field_key}
                        {...chosen}
                        data={options.map((option) => ({ value: option, label: option }))}
                      />
                    );
                  }
                  case 'checkbox':
                  case 'boolean':
                    return (
                      <Checkbox
                        key={field.field_key}
                        label={label}
                        aria-label={field.label}
                        description={field.help_text ?? undefined}
                        checked={value === true}
                        onChange={(event) => set(field.field_key, event.currentTarget.checked)}
                        mt="lg"
                      />
                    );
                  case 'number':
                    return (
                      <NumberInput
                        key={field.field_key}
                        {...common}
                        value={typeof value === 'number' ? value : ''}
                        onChange={(next) => set(field.field_key, typeof next === 'number' ? next : '')}
                      />
                    );
                  case 'textarea':
                    return (
                      <Textarea
                        key={field.field_key}
                        {...common}
                        autosize
                        minRows={2}
                        value={typeof value === 'string' ? value : ''}
                        onChange={(event) => set(field.field_key, event.currentTarget.value)}
                      />
                    );
                  case 'date':
                    return (
                      <CalendarDateInput
                        key={field.field_key}
                        {...common}
                        value={typeof value === 'string' ? value : null}
                        onChange={(day) => set(field.field_key, day)}
                      />
                    );
                  default:
                    return (
                      <TextInput
                        key={field.field_key}
                        {...common}
                        value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
                        onChange={(event) => set(field.field_key, event.currentTarget.value)}
                      />
                    );
                }
              })}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
