import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { AGE_CATEGORIES, HEALTH_VALUES, SEXES, SIZES, SPECIES } from '../../../shared/contract';
import type { PetTemplateSetting, ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { humanize } from '../lib/words';
import { useAction } from './use-shelter';

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
  const [editing, setEditing] = useState<{ template: Template | undefined }>();
  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="md">
        <Text size="sm" c="dimmed" maw={620}>
          A template fills in what an intake does not say, for animals that often arrive alike.
        </Text>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ template: undefined })}>
          Add template
        </Button>
      </Group>
      {templates.length === 0 ? (
        <Text size="sm">No templates yet.</Text>
      ) : (
        <Table aria-label="Pet templates" verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Fills in</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.map((template) => (
              <Table.Tr key={template.id}>
                <Table.Td>{template.name}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {Object.entries(template.defaults)
                      .filter(([, value]) => !(Array.isArray(value) && value.length === 0))
                      .map(([key, value]) => (
                        <Badge key={key} variant="light" color="gray" size="sm">
                          {humanize(key)}: {Array.isArray(value) ? value.join(', ') : String(value)}
                        </Badge>
                      ))}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" onClick={() => setEditing({ template })}>
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <TemplateModal
          key={editing.template?.id ?? 'new'}
          template={editing.template}
          onClose={() => setEditing(undefined)}
          onSaved={onChange}
        />
      )}
    </Card>
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
  const action = useAction();
  const [name, setName] = useState(template?.name ?? '');
  const [defaults, setDefaults] = useState<Defaults>(template?.defaults ?? {});
  const set = (key: string, value: unknown) => {
    const next: Record<string, unknown> = { ...defaults };
    if (value === null || value === '') delete next[key];
    else next[key] = value;
    setDefaults(next as Defaults);
  };
  async function save(event: FormEvent) {
    event.preventDefault();
    const done = await action.run(() =>
      api.call('shelter.templates.save', { ...(template && { id: template.id }), name, defaults }),
    );
    if (done) {
      onSaved();
      onClose();
    }
  }
  const current = defaults as Record<string, unknown>;
  return (
    <Modal
      opened
      onClose={onClose}
      title={template ? `Edit ${template.name}` : 'New pet template'}
      size="lg"
      centered
    >
      <form onSubmit={save} aria-label="Pet template">
        <Stack gap="sm">
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
          {action.error && <DeskErrorAlert error={action.error} title="Template not saved" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={action.busy}>
              Save template
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
