import { Badge, Group, Select, SimpleGrid, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { AGE_CATEGORIES, HEALTH_VALUES, SEXES, SIZES, SPECIES } from '../../../shared/contract';
import type { PetTemplateSetting, ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { humanize } from '../lib/words';
import { EditableList } from './editable-list';
import { EditorModal } from './editor-modal';

type Template = ShelterSettings['templates'][number];
type Defaults = PetTemplateSetting['defaults'];

const CHOICES = [
  { key: 'species', label: 'Species', values: SPECIES },
  { key: 'age_category', label: 'Age', values: AGE_CATEGORIES },
  { key: 'sex', label: 'Sex', values: SEXES },
  { key: 'size', label: 'Size', values: SIZES },
  { key: 'health', label: 'Health', values: HEALTH_VALUES },
] as const;

/** Pet templates: defaults a new pet gets when its intake names the template (a litter of kittens...). */
export function TemplatesPanel({ templates, onChange }: { templates: Template[]; onChange(): void }) {
  return (
    <EditableList
      label="Pet templates"
      items={templates}
      columns={[
        { header: 'Name', cell: (template) => template.name },
        { header: 'Fills in', cell: (template) => <DefaultBadges defaults={template.defaults} /> },
      ]}
      empty="No templates yet."
      addLabel="Add template"
      toolbar={
        <Text size="sm" c="dimmed" maw={620}>
          A template fills in what an intake does not say, for animals that often arrive alike.
        </Text>
      }
      editor={(template, close) => (
        <TemplateModal key={template?.id ?? 'new'} template={template} onClose={close} onSaved={onChange} />
      )}
    />
  );
}

function DefaultBadges({ defaults }: { defaults: Defaults }) {
  return (
    <Group gap={4}>
      {Object.entries(defaults)
        .filter(([, value]) => !(Array.isArray(value) && value.length === 0))
        .map(([key, value]) => (
          <Badge key={key} variant="light" color="gray" size="sm">
            {humanize(key)}: {Array.isArray(value) ? value.join(', ') : String(value)}
          </Badge>
        ))}
    </Group>
  );
}

function TemplateModal({
  template,
  onClose,
  onSaved,
}: {
  template: Template | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const api = useDesk();
  const [name, setName] = useState(template?.name ?? '');
  const [defaults, setDefaults] = useState<Defaults>(template?.defaults ?? {});
  const set = (key: string, value: unknown) => {
    const next: Record<string, unknown> = { ...defaults };
    if (value === null || value === '') delete next[key];
    else next[key] = value;
    setDefaults(next as Defaults);
  };
  const current = defaults as Record<string, unknown>;
  return (
    <EditorModal
      title={template ? `Edit ${template.name}` : 'New pet template'}
      formLabel="Pet template"
      size="lg"
      submitLabel="Save template"
      errorTitle="Template not saved"
      save={() =>
        api.call('shelter.templates.save', { ...(template && { id: template.id }), name, defaults })
      }
      onSaved={onSaved}
      onClose={onClose}
    >
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <SimpleGrid cols={3}>
        {CHOICES.map((choice) => (
          <Select
            key={choice.key}
            label={choice.label}
            placeholder="Not set"
            data={choice.values.map((value) => ({ value, label: humanize(value) }))}
            value={(current[choice.key] as string | undefined) ?? null}
            onChange={(value) => set(choice.key, value)}
            clearable
          />
        ))}
      </SimpleGrid>
      <Textarea
        label="Description"
        autosize
        minRows={2}
        value={(current.description as string | undefined) ?? ''}
        onChange={(e) => set('description', e.currentTarget.value)}
      />
    </EditorModal>
  );
}
