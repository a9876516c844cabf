import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ShelterSettings } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { EditableList } from './editable-list';
import { EditorModal } from './editor-modal';

type Vet = ShelterSettings['veterinarians'][number];

/** The shelter's veterinarians; pets name one as their primary vet. */
export function VetsPanel({ vets, onChange }: { vets: Vet[]; onChange(): void }) {
  return (
    <EditableList
      label="Veterinarians"
      items={vets}
      columns={[
        { header: 'Name', cell: (vet) => vet.name },
        { header: 'Clinic', cell: (vet) => vet.clinic ?? '—' },
        { header: 'Phone', cell: (vet) => vet.phone ?? '—' },
        { header: 'Email', cell: (vet) => vet.email ?? '—' },
      ]}
      empty="No veterinarians yet."
      addLabel="Add veterinarian"
      toolbar={
        <Text size="sm" c="dimmed">
          Pets show their primary vet as “name, clinic”. Renaming a vet updates every pet that names them.
        </Text>
      }
      editor={(vet, close) => (
        <VetModal key={vet?.id ?? 'new'} vet={vet} onClose={close} onSaved={onChange} />
      )}
    />
  );
}

const VET_INPUTS = [
  { key: 'name', label: 'Name' },
  { key: 'clinic', label: 'Clinic' },
  { key: 'phone', label: 'Phone' },
  { key: 'email', label: 'Email' },
] as const;

function VetModal({ vet, onClose, onSaved }: { vet: Vet | undefined; onClose(): void; onSaved(): void }) {
  const api = useDesk();
  const [form, setForm] = useState({
    name: vet?.name ?? '',
    clinic: vet?.clinic ?? '',
    phone: vet?.phone ?? '',
    email: vet?.email ?? '',
  });
  const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
  return (
    <EditorModal
      title={vet ? `Edit ${vet.name}` : 'New veterinarian'}
      formLabel="Veterinarian"
      save={() =>
        api.call('shelter.vets.save', {
          ...(vet && { id: vet.id }),
          name: form.name,
          clinic: orNull(form.clinic),
          phone: orNull(form.phone),
          email: orNull(form.email),
        })
      }
      onSaved={onSaved}
      onClose={onClose}
    >
      <SimpleGrid cols={2}>
        {VET_INPUTS.map(({ key, label }) => (
          <TextInput
            key={key}
            label={label}
            required={key === 'name'}
            value={form[key]}
            onChange={(e) => setForm({ ...form, [key]: e.currentTarget.value })}
          />
        ))}
      </SimpleGrid>
    </EditorModal>
  );
}
