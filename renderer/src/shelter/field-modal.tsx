import {
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { FIELD_TYPES, type ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { humanize } from '../lib/words';
import { useAction } from './use-shelter';

type Entity = 'pet' | 'adopter' | 'foster';
type Field = ShelterSettings['fields'][number];

const optionList = (value: unknown): string => (Array.isArray(value) ? value.map(String).join('\n') : '');

/** Creates or edits one custom field of a form. */
export function FieldModal({
  entity,
  field,
  sections,
  opened,
  onClose,
  onSaved,
}: {
  entity: Entity;
  field: Field | undefined;
  sections: ShelterSettings['sections'];
  opened: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const api = useDesk();
  const action = useAction();
  const [form, setForm] = useState({
    fieldKey: field?.fieldKey ?? '',
    publicKey: field?.publicKey ?? '',
    label: field?.label ?? '',
    fieldType: field?.fieldType ?? 'text',
    options: optionList(field?.options),
    helpText: field?.helpText ?? '',
    sectionId: field?.sectionId ?? null,
    required: field?.required ?? false,
    hidden: field?.hidden ?? false,
    internalOnly: field?.internalOnly ?? false,
  });
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm({ ...form, [key]: value });
  const options = form.options
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

  async function save(event: FormEvent) {
    event.preventDefault();
    const done = await action.run(() =>
      api.call('shelter.fields.save', {
        ...(field && { id: field.id }),
        entity,
        fieldKey: form.fieldKey,
        publicKey: entity === 'pet' || form.publicKey.trim() === '' ? null : form.publicKey.trim(),
        label: form.label,
        fieldType: form.fieldType,
        options: form.fieldType === 'select' ? options : null,
        helpText: form.helpText.trim() === '' ? null : form.helpText.trim(),
        sectionId: form.sectionId,
        required: form.required,
        hidden: form.hidden,
        internalOnly: form.internalOnly,
        sortOrder: field?.sortOrder ?? 100,
      }),
    );
    if (done) {
      onSaved();
      onClose();
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={field ? `Edit “${field.label}”` : `New ${entity} field`}
      size="lg"
      centered
    >
      <form onSubmit={save} aria-label="Custom field">
        <Stack gap="sm">
          <SimpleGrid cols={2}>
            <TextInput
              label="Label"
              required
              value={form.label}
              onChange={(e) => set('label', e.currentTarget.value)}
            />
            <TextInput
              label="Key"
              description="Stored under this name; letters, digits, _ . -"
              required
              value={form.fieldKey}
              onChange={(e) => set('fieldKey', e.currentTarget.value)}
            />
            <Select
              label="Type"
              data={FIELD_TYPES.map((value) => ({ value, label: humanize(value) }))}
              value={form.fieldType}
              onChange={(value) => set('fieldType', value ?? 'text')}
              allowDeselect={false}
            />
            <Select
              label="Section"
              placeholder="No section"
              data={sections.filter((s) => s.entity === entity).map((s) => ({ value: s.id, label: s.name }))}
              value={form.sectionId}
              onChange={(value) => set('sectionId', value)}
              clearable
            />
          </SimpleGrid>
          {entity !== 'pet' && (
            <TextInput
              label="Public key"
              description="The name API clients (your website’s forms) send this field under, if different."
              value={form.publicKey}
              onChange={(e) => set('publicKey', e.currentTarget.value)}
            />
          )}
          {form.fieldType === 'select' && (
            <Textarea
              label="Choices"
              description="One per line."
              autosize
              minRows={3}
              value={form.options}
              onChange={(e) => set('options', e.currentTarget.value)}
            />
          )}
          <TextInput
            label="Help text"
            value={form.helpText}
            onChange={(e) => set('helpText', e.currentTarget.value)}
          />
          <Group gap="lg">
            <Checkbox
              label="Required"
              checked={form.required}
              onChange={(e) => set('required', e.currentTarget.checked)}
            />
            <Checkbox
              label="Hidden"
              checked={form.hidden}
              onChange={(e) => set('hidden', e.currentTarget.checked)}
            />
            <Checkbox
              label="Staff only (never public)"
              checked={form.internalOnly}
              onChange={(e) => set('internalOnly', e.currentTarget.checked)}
            />
          </Group>
          {action.error && <DeskErrorAlert error={action.error} title="Field not saved" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={action.busy}>
              Save field
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
