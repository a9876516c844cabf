import { Button, Card, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useAction } from './use-shelter';

type Vet = ShelterSettings['veterinarians'][number];

/** The shelter's veterinarians; pets name one as their primary vet. */
export function VetsPanel({ vets, onChange }: { vets: Vet[]; onChange(): void }) {
  const [editing, setEditing] = useState<{ vet: Vet | undefined }>();
  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="md">
        <Text size="sm" c="dimmed">
          Pets show their primary vet as “name, clinic”. Renaming a vet updates every pet that names them.
        </Text>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ vet: undefined })}>
          Add veterinarian
        </Button>
      </Group>
      {vets.length === 0 ? (
        <Text size="sm">No veterinarians yet.</Text>
      ) : (
        <Table aria-label="Veterinarians" verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Clinic</Table.Th>
              <Table.Th>Phone</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {vets.map((vet) => (
              <Table.Tr key={vet.id}>
                <Table.Td>{vet.name}</Table.Td>
                <Table.Td>{vet.clinic ?? '—'}</Table.Td>
                <Table.Td>{vet.phone ?? '—'}</Table.Td>
                <Table.Td>{vet.email ?? '—'}</Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" onClick={() => setEditing({ vet })}>
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <VetModal
          key={editing.vet?.id ?? 'new'}
          vet={editing.vet}
          onClose={() => setEditing(undefined)}
          onSaved={onChange}
        />
      )}
    </Card>
  );
}

function VetModal({ vet, onClose, onSaved }: { vet: Vet | undefined; onClose(): void; onSaved(): void }) {
  const api = useDesk();
  const action = useAction();
  const [form, setForm] = useState({
    name: vet?.name ?? '',
    clinic: vet?.clinic ?? '',
    phone: vet?.phone ?? '',
    email: vet?.email ?? '',
  });
  const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
  async function save(event: FormEvent) {
    event.preventDefault();
    const done = await action.run(() =>
      api.call('shelter.vets.save', {
        ...(vet && { id: vet.id }),
        name: form.name,
        clinic: orNull(form.clinic),
        phone: orNull(form.phone),
        email: orNull(form.email),
      }),
    );
    if (done) {
      onSaved();
      onClose();
    }
  }
  return (
    <Modal opened onClose={onClose} title={vet ? `Edit ${vet.name}` : 'New veterinarian'} centered>
      <form onSubmit={save} aria-label="Veterinarian">
        <Stack gap="sm">
          <SimpleGrid cols={2}>
            <TextInput
              label="Name"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            />
            <TextInput
              label="Clinic"
              value={form.clinic}
              onChange={(e) => setForm({ ...form, clinic: e.currentTarget.value })}
            />
            <TextInput
              label="Phone"
              value={form.phone}
              onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })}
            />
            <TextInput
              label="Email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.currentTarget.value })}
            />
          </SimpleGrid>
          {action.error && <DeskErrorAlert error={action.error} title="Not saved" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={action.busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
