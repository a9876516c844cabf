import { Alert, Button, Group, Loader, Stack, Table, Title } from '@mantine/core';
import { IconClockHour4, IconEdit, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import type { CustomField } from '../../../shared/contract';
import { type MirrorPerson, REMOTE_PERSON_EDIT } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { ApplicationsList } from '../components/applications-list';
import { DeskErrorAlert } from '../components/desk-error-alert';
import type { LeaveGuard } from '../components/leave-guard';
import { RecordBadges } from '../components/record-badges';
import { SavedLine } from '../components/saved-line';
import { customFieldSections, formatCustomValue, type StoredKeys } from '../lib/custom-field-rows';
import { formatMomentDate } from '../lib/dates';
import { useMetadataQuery, useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import { useFocusWhen } from '../lib/use-focus-when';
import { formatValue, humanize } from '../lib/words';
import { ContractButton } from '../print/contract-button';
import { PersonStatusSection } from '../shelter/person-status-section';
import { PersonEditForm } from './person-edit-form';
import { useStoredFieldKeys } from './stored-field-keys';

/** A person's page (in the People drawer): details, custom fields in their sections, applications, an Edit form. */
export function PersonDetail({ id, editGuard }: { id: string; editGuard: LeaveGuard }) {
  const person = useDeskQuery('mirror.people.get', { id });
  useReloadOnChange(['adopters', 'fosters', 'people'], person.reload);
  const type = person.data?.record.type === 'foster' ? 'foster' : 'adopter';
  const fields = useMetadataQuery('mirror.customFields', { entity: type });
  const storedKeys = useStoredFieldKeys(type);
  const overview = useDeskQuery('shelter.overview');
  const needsAttention = useNeedsAttention();
  const [editing, setEditing] = useState(false);
  /** How the edit form was left, once it was: its Save or Cancel had the focus, and a Save is confirmed. */
  const [leftEditing, setLeftEditing] = useState<'saved' | 'cancelled'>();
  if (person.error) return <DeskErrorAlert error={person.error} title="This person could not be opened" />;
  if (!person.data) return <Loader aria-label="Loading person" />;
  const labels = fields.data?.fields ?? [];
  if (editing) {
    return (
      <PersonEditForm
        person={person.data.record}
        fields={labels}
        storedKeys={storedKeys}
        editGuard={editGuard}
        onDone={(saved) => {
          setEditing(false);
          setLeftEditing(saved ? 'saved' : 'cancelled');
          person.reload();
        }}
      />
    );
  }
  return (
    <PersonView
      person={person.data}
      labels={labels}
      storedKeys={storedKeys}
      needsAttention={needsAttention.has(person.data.record.id)}
      editable={overview.data?.role === 'standalone'}
      focusEdit={leftEditing !== undefined}
      justSaved={leftEditing === 'saved'}
      onEdit={() => setEditing(true)}
    />
  );
}

function PersonView({
  person,
  labels,
  storedKeys,
  needsAttention,
  editable,
  focusEdit,
  justSaved,
  onEdit,
}: {
  person: MirrorPerson;
  labels: readonly CustomField[];
  storedKeys: StoredKeys;
  needsAttention: boolean;
  editable: boolean;
  /** Puts the focus on Edit: the view came back from the edit form, whose Save or Cancel had it. */
  focusEdit: boolean;
  /** The view came back from an edit whose Save went through: a line says so. */
  justSaved: boolean;
  onEdit(): void;
}) {
  const { record } = person;
  const [explained, setExplained] = useState(false);
  const editButton = useFocusWhen(focusEdit);
  const rows: [string, string][] = [
    ['Type', humanize(record.type)],
    ['Email', formatValue(record.email)],
    ['Phone', formatValue(record.phone)],
    ['Address', formatValue(record.address)],
    ['Status', humanize(record.status)],
    ['Notes', formatValue(record.status_change_notes)],
    ...(record.type === 'foster' ? ([['Capacity', formatValue(record.capacity)]] as [string, string][]) : []),
    ['Tags', formatValue(record.tags)],
    ['Signed up', formatMomentDate(record.created_at)],
    ['Last changed', formatMomentDate(record.updated_at)],
  ];
  const sections = customFieldSections(record.custom_field_data, labels, storedKeys);
  const local = person.presence === 'local';
  return (
    <Stack gap="md">
      <Group gap="sm" justify="space-between">
        <Group gap="sm">
          <Title order={2}>{record.name}</Title>
          <RecordBadges
            pending={person.pending}
            pendingFields={person.pendingFields}
            needsAttention={needsAttention}
            presence={person.presence}
          />
        </Group>
        <Button
          ref={editButton}
          variant="light"
          leftSection={<IconEdit aria-hidden size={16} />}
          onClick={() => (editable && !local ? onEdit() : setExplained(true))}
        >
          Edit
        </Button>
      </Group>
      {justSaved && <SavedLine>Changes saved in your shelter’s records.</SavedLine>}
      {explained && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          withCloseButton
          onClose={() => setExplained(false)}
          role="status"
        >
          {local
            ? 'This person is still waiting to be sent to the shelter’s server; they can be edited once they are saved there.'
            : REMOTE_PERSON_EDIT}
        </Alert>
      )}
      <ContractButton personId={record.id} name={record.name} type={record.type} />
      {local && (
        <Alert color="yellow" variant="light" icon={<IconClockHour4 aria-hidden />}>
          Signed up on this desk. Sent to the shelter’s server when the connection allows.
        </Alert>
      )}
      <Table variant="vertical" withTableBorder layout="fixed" aria-label="Person fields">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {sections.map((section) => (
        <Stack key={section.title} gap={6}>
          <Title order={4}>{section.title}</Title>
          <Table variant="vertical" withTableBorder layout="fixed" aria-label={section.title}>
            <Table.Tbody>
              {section.rows.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Th w={160}>{row.label}</Table.Th>
                  <Table.Td>{formatCustomValue(row.value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
      {!local && <ApplicationsList of="person" id={record.id} />}
      <PersonStatusSection person={person} />
    </Stack>
  );
}
