import { Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FIELD_TYPES, fieldKeyFromLabel, type ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { CheckboxRow } from '../components/checkbox-row';
import { humanize } from '../lib/words';
import { EditorModal } from './editor-modal';

type Entity = 'pet' | 'adopter' | 'foster';
type Field = ShelterSettings['fields'][number];

const optionList = (value: unknown): string => (Array.isArray(value) ? value.map(String).join('\n') : '');

/** Creates or edits one custom field of a form. */
export function FieldModal({
  entity,
  field,
  sections,
  takenKeys,
  onClose,
  onSaved,
}: {
  entity: Entity;
  field: Field | undefined;
  sections: ShelterSettings['sections'];
  /** Keys the form's other fields have: a key made from the label avoids them. */
  takenKeys: ReadonlySet<string>;
  onClose(): void;
  onSaved(): void;
}) {
  const api = useDesk();
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
  // A new field's key follows its label until someone types a key of their own; a saved field's key stays (its
  // answers are stored under it).
  const [keyTyped, setKeyTyped] = useState(field !== undefined);
  const setLabel = (label: string) =>
    setForm({
      ...form,
      label,
      ...(!keyTyped && { fieldKey: label.trim() ? fieldKeyFromLabel(label, takenKeys) : '' }),
    });
  const options = form.options
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

  const save = () =>
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
    });

  return (
    <EditorModal
      title={field ? `Edit “${field.label}”` : `New ${entity} field`}
      formLabel="Custom field"
      size="lg"
      submitLabel="Save field"
      errorTitle="Field not saved"
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <SimpleGrid cols={2}>
        <TextInput
          label="Label"
          required
          value={form.label}
          onChange={(e) => setLabel(e.currentTarget.value)}
        />
        <TextInput
          label="Key"
          // Under the box, so the label's and the key's boxes stay side by side.
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          description={
            field ? 'Answers are stored under this name' : 'Made from the label; letters, digits, _ . - only'
          }
          required
          value={form.fieldKey}
          onChange={(e) => {
            setKeyTyped(true);
            set('fieldKey', e.currentTarget.value);
          }}
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
      <CheckboxRow
        boxes={[
          { key: 'required', label: 'Required' },
          { key: 'hidden', label: 'Hidden' },
          { key: 'internalOnly', label: 'Staff only (never public)' },
        ]}
        checked={form}
        onChange={set}
      />
    </EditorModal>
  );
}
