import { Badge, Card, Checkbox, Group, Switch, Table, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { CustomStatusSetting, ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useAction } from './use-shelter';

/** Custom pet statuses: a label, whether pets with it are on the public list, whether it can be chosen. */
export function StatusesPanel({
  statuses,
  onChange,
}: {
  statuses: ShelterSettings['statuses'];
  onChange(): void;
}) {
  const api = useDesk();
  const action = useAction();
  const [label, setLabel] = useState('');
  const [isPublic, setIsPublic] = useState(true);

  async function save(status: CustomStatusSetting) {
    const done = await action.run(() => api.call('shelter.statuses.save', status));
    if (done) onChange();
    return done;
  }
  async function add(event: FormEvent) {
    event.preventDefault();
    if (await save({ label, isPublic, isActive: true, sortOrder: statuses.length })) setLabel('');
  }

  return (
    <Card withBorder radius="lg" p="lg">
      <Text size="sm" c="dimmed" mb="md">
        Your own statuses beside the built-in ones (available, hold, adopted…). A status that is not public
        keeps its pets off your website’s list; an inactive one can no longer be chosen but stays on the pets
        that have it.
      </Text>
      <form onSubmit={add} aria-label="New status">
        <Group align="flex-end" gap="sm" mb="md">
          <TextInput
            label="New status"
            placeholder="Quiet room, Behaviour assessment…"
            value={label}
            onChange={(event) => setLabel(event.currentTarget.value)}
            required
            w={300}
          />
          <Checkbox
            label="Public"
            checked={isPublic}
            onChange={(event) => setIsPublic(event.currentTarget.checked)}
            mb={8}
          />
          <BusyButton type="submit" leftSection={<IconPlus aria-hidden size={18} />} loading={action.busy}>
            Add status
          </BusyButton>
        </Group>
      </form>
      {action.error && <DeskErrorAlert error={action.error} title="Status not saved" />}
      {statuses.length === 0 ? (
        <Text size="sm">No custom statuses yet.</Text>
      ) : (
        <Table aria-label="Custom statuses" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>On the public list</Table.Th>
              <Table.Th>Can be chosen</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {statuses.map((status) => (
              <Table.Tr key={status.id}>
                <Table.Td>
                  <Group gap="xs">
                    {status.label}
                    {!status.isPublic && (
                      <Badge size="sm" variant="light" color="gray">
                        Not public
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`${status.label} is public`}
                    checked={status.isPublic}
                    onChange={(event) => void save({ ...status, isPublic: event.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`${status.label} is active`}
                    checked={status.isActive}
                    onChange={(event) => void save({ ...status, isActive: event.currentTarget.checked })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
