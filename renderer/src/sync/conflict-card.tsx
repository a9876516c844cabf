import { Alert, Button, Group, Table, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import type { OutboxConflict } from '../../../shared/desk-api';
import { BusyButton } from '../components/busy-button';
import { useMetadataQuery } from '../lib/live-data';
import { formatValue, humanize } from '../lib/words';
import { conflictRows } from './conflict-rows';

/** Fields whose values are names from a fixed list ("meetAndGreetReady"): shown as the forms' menus say them. */
const WORDED_FIELDS = new Set([
  'status',
  'species',
  'sex',
  'size',
  'age_category',
  'health',
  'good_with',
  'bad_with',
  'temperaments',
  'type',
]);

function shown(field: string, value: unknown): string {
  if (!WORDED_FIELDS.has(field)) return formatValue(value);
  if (typeof value === 'string' && value !== '') return humanize(value);
  if (Array.isArray(value))
    return formatValue(value.map((item) => (typeof item === 'string' ? humanize(item) : item)));
  return formatValue(value);
}

export type FieldLabels = Record<OutboxConflict['entityType'], Record<string, string>>;

/**
 * The labels of the shelter's own fields, by key, of pets and of people (adopter and foster fields): read once for
 * every conflict card on the screen.
 */
export function useCustomFieldLabels(): FieldLabels {
  const pet = useMetadataQuery('mirror.customFields', { entity: 'pet' }).data?.fields ?? [];
  const adopter = useMetadataQuery('mirror.customFields', { entity: 'adopter' }).data?.fields ?? [];
  const foster = useMetadataQuery('mirror.customFields', { entity: 'foster' }).data?.fields ?? [];
  const byKey = (fields: typeof pet) =>
    Object.fromEntries(fields.map((field) => [field.field_key, field.label]));
  return { pet: byKey(pet), person: byKey([...foster, ...adopter]) };
}

/** The notices of one record together (one per field), in the order the desk lists them. */
export function conflictsByRecord(conflicts: readonly OutboxConflict[]): OutboxConflict[][] {
  const records = new Map<string, OutboxConflict[]>();
  for (const conflict of conflicts) {
    const key = `${conflict.entityType}:${conflict.entityId}`;
    records.set(key, [...(records.get(key) ?? []), conflict]);
  }
  return [...records.values()];
}

/**
 * One record whose change made here met another change on the server: each field with both values, and one choice
 * for the whole change (a status and its note go together, so no half of each is kept).
 */
export function ConflictCard({
  conflicts,
  labels,
  busy,
  onChoose,
}: {
  conflicts: readonly OutboxConflict[];
  /** From `useCustomFieldLabels`. */
  labels: FieldLabels;
  busy: boolean;
  onChoose(choice: 'mine' | 'server'): void;
}) {
  const [first] = conflicts;
  if (!first) return null;
  const fields = conflicts.length === 1 ? humanize(first.field).toLowerCase() : 'some of the same fields';
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconArrowBackUp aria-hidden />}
      title={`${first.recordName}: ${fields} also changed on the server`}
    >
      <Text size="sm">
        This desk’s change was saved on the server, over what someone else had saved there meanwhile. Check
        which should stay.
      </Text>
      <Table
        mt="xs"
        withRowBorders={false}
        verticalSpacing={4}
        fz="sm"
        aria-label={`Changes to ${first.recordName}`}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>This desk (saved)</Table.Th>
            <Table.Th>The server had</Table.Th>
            <Table.Th>Before both</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {conflictRows(conflicts, labels[first.entityType]).map((row) => (
            <Table.Tr key={row.key}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td fw={600}>{shown(row.field, row.local)}</Table.Td>
              <Table.Td fw={600}>{shown(row.field, row.server)}</Table.Td>
              <Table.Td>{shown(row.field, row.base)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="sm" mt="sm">
        <BusyButton size="xs" color="orange" loading={busy} onClick={() => onChoose('server')}>
          {conflicts.length === 1 ? 'Use the server’s value' : 'Use the server’s values'}
        </BusyButton>
        <Button size="xs" variant="default" disabled={busy} onClick={() => onChoose('mine')}>
          Keep mine
        </Button>
      </Group>
    </Alert>
  );
}
