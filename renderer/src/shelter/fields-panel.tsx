import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { humanize } from '../lib/words';
import { EditableList } from './editable-list';
import { FieldModal } from './field-modal';
import { useAction } from './use-shelter';

type Entity = 'pet' | 'adopter' | 'foster';
type Field = ShelterSettings['fields'][number];

/** Custom fields of the pet, adopter and foster forms, their sections, and where intake answers are kept. */
export function FieldsPanel({ settings, onChange }: { settings: ShelterSettings; onChange(): void }) {
  const api = useDesk();
  const [entity, setEntity] = useState<Entity>('pet');
  const [sectionName, setSectionName] = useState('');
  const action = useAction();
  const sections = settings.sections.filter((section) => section.entity === entity);
  const fields = settings.fields.filter((field) => field.entity === entity);
  const sectionName_ = (id: string | null) => sections.find((section) => section.id === id)?.name ?? '—';

  async function addSection(event: FormEvent) {
    event.preventDefault();
    const done = await action.run(() =>
      api.call('shelter.sections.save', { entity, name: sectionName, sortOrder: sections.length }),
    );
    if (done) {
      setSectionName('');
      onChange();
    }
  }
  async function map(target: 'location_found' | 'reason_for_surrender', fieldKey: string | null) {
    if (await action.run(() => api.call('shelter.mappings.set', { target, fieldKey }))) onChange();
  }

  return (
    <Stack gap="lg">
      <EditableList
        label="Custom fields"
        items={fields}
        columns={[
          { header: 'Label', cell: (field) => field.label },
          {
            header: 'Key',
            cell: (field) => (
              <Text size="sm" ff="monospace">
                {field.fieldKey}
                {field.publicKey && field.publicKey !== field.fieldKey ? ` (API: ${field.publicKey})` : ''}
              </Text>
            ),
          },
          { header: 'Type', cell: (field) => humanize(field.fieldType) },
          { header: 'Section', cell: (field) => sectionName_(field.sectionId) },
          { header: 'Flags', cell: (field) => <FieldFlags field={field} /> },
        ]}
        empty="No custom fields on this form yet."
        addLabel="Add field"
        toolbar={
          <SegmentedControl
            aria-label="Form"
            value={entity}
            onChange={(value) => setEntity(value as Entity)}
            data={[
              { value: 'pet', label: 'Pets' },
              { value: 'adopter', label: 'Adopters' },
              { value: 'foster', label: 'Fosters' },
            ]}
          />
        }
        intro={
          <Text size="sm" c="dimmed" mb="md">
            Extra questions on the {entity} form, grouped in sections. The intake and sign-up forms on every
            desk follow these after their next sync.
          </Text>
        }
        editor={(field, close) => (
          <FieldModal
            key={field?.id ?? `new-${entity}`}
            entity={entity}
            field={field}
            sections={settings.sections}
            takenKeys={
              new Set(fields.filter((other) => other.id !== field?.id).map((other) => other.fieldKey))
            }
            onClose={close}
            onSaved={onChange}
          />
        )}
      >
        {action.error && <DeskErrorAlert error={action.error} title="Not saved" />}
      </EditableList>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="lg" p="lg">
          <Title order={3} size="h5" mb="xs">
            Sections of the {entity} form
          </Title>
          <Group gap={6} mb="sm">
            {sections.length === 0 && <Text size="sm">None yet: fields show in one list.</Text>}
            {sections.map((section) => (
              <Badge key={section.id} variant="light" color={section.hidden ? 'gray' : 'sage'}>
                {section.name}
              </Badge>
            ))}
          </Group>
          <form onSubmit={addSection} aria-label="New section">
            <Group align="flex-end" gap="sm">
              <TextInput
                label="New section"
                placeholder="Medical, Home and family…"
                value={sectionName}
                onChange={(event) => setSectionName(event.currentTarget.value)}
                required
              />
              <Button type="submit" variant="light">
                Add section
              </Button>
            </Group>
          </form>
        </Card>
        {entity === 'pet' && (
          <Card withBorder radius="lg" p="lg">
            <Title order={3} size="h5" mb="xs">
              Where intake answers are kept
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              The API’s “location found” and “reason for surrender” are stored in these pet fields.
            </Text>
            {(['location_found', 'reason_for_surrender'] as const).map((target) => (
              <Select
                key={target}
                label={target === 'location_found' ? 'Location found' : 'Reason for surrender'}
                placeholder="Not kept"
                data={fields.map((field) => ({ value: field.fieldKey, label: field.label }))}
                value={settings.mappings[target] ?? null}
                onChange={(value) => void map(target, value)}
                clearable
                mb="xs"
              />
            ))}
          </Card>
        )}
      </SimpleGrid>
    </Stack>
  );
}

function FieldFlags({ field }: { field: Field }) {
  return (
    <Group gap={4}>
      {field.required && (
        <Badge size="sm" variant="light">
          Required
        </Badge>
      )}
      {field.hidden && (
        <Badge size="sm" variant="light" color="gray">
          Hidden
        </Badge>
      )}
      {field.internalOnly && (
        <Badge size="sm" variant="light" color="orange">
          Staff only
        </Badge>
      )}
    </Group>
  );
}
