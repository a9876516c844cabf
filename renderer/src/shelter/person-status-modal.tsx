import { Button, Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { PERSON_STATUSES } from '../../../shared/contract';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useFocusBack } from '../lib/use-focus-back';
import { humanize } from '../lib/words';
import { useAction } from './use-shelter';

/** A staff decision on a person: any status (denied, suspended, blocked too) with notes for colleagues. */
export function PersonStatusModal({
  person,
  onClose,
  onSaved,
}: {
  person: { id: string; name: string; status?: string } | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const api = useDesk();
  const [status, setStatus] = useState<string | null>(person?.status ?? null);
  const [notes, setNotes] = useState('');
  const action = useAction();
  useFocusBack(person !== undefined);
  async function save() {
    if (!person || !status) return;
    const done = await action.run(() =>
      api.call('shelter.people.setStatus', {
        personId: person.id,
        status: status as (typeof PERSON_STATUSES)[number],
        ...(notes.trim() && { notes: notes.trim() }),
      }),
    );
    if (done) {
      setNotes('');
      onSaved();
      onClose();
    }
  }
  return (
    <Modal opened={person !== undefined} onClose={onClose} title={`Status of ${person?.name ?? ''}`} centered>
      <Stack gap="sm">
        <Select
          label="Status"
          data={PERSON_STATUSES.map((value) => ({ value, label: humanize(value) }))}
          value={status}
          onChange={setStatus}
          allowDeselect={false}
        />
        <Textarea
          label="Notes"
          description="Why, for whoever reads this record next."
          autosize
          minRows={2}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
        />
        {action.error && <DeskErrorAlert error={action.error} title="Status not changed" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton onClick={() => void save()} loading={action.busy} disabled={!status}>
            Save status
          </BusyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
