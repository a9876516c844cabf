import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { MirrorPet } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useAction } from './use-shelter';

/**
 * Removing a pet from the shelter's records (a staff decision the API does not take): only on a desk that runs
 * the shelter, only for pets the server has, always after a confirmation. The record is kept for history.
 */
export function DeletePetSection({ pet }: { pet: MirrorPet }) {
  const api = useDesk();
  const overview = useDeskQuery('shelter.overview');
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const [deleted, setDeleted] = useState(false);
  if (deleted) {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconTrash aria-hidden />}
        title={`${pet.record.name} was deleted`}
        role="status"
      >
        It is gone from the public list and from every desk’s pet list after their next sync.
      </Alert>
    );
  }
  if (overview.data?.role !== 'standalone' || pet.presence === 'local' || pet.presence === 'removed')
    return null;

  async function remove() {
    const done = await action.run(() => api.call('shelter.pets.delete', { petId: pet.record.id }));
    if (done !== undefined) {
      setConfirming(false);
      setDeleted(true);
    }
  }
  return (
    <Group justify="flex-end" pt="sm">
      <Button
        variant="subtle"
        color="red"
        leftSection={<IconTrash aria-hidden size={16} />}
        onClick={() => setConfirming(true)}
      >
        Delete this pet…
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete ${pet.record.name}?`}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">
            {pet.record.name} leaves the public list and every desk’s pet list; the API answers “not found”
            for it. The record is kept in the database for your history but cannot be brought back from the
            desk.
          </Text>
          {action.error && <DeskErrorAlert error={action.error} title="The pet was not deleted" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep
            </Button>
            <BusyButton color="red" onClick={() => void remove()} loading={action.busy}>
              Delete {pet.record.name}
            </BusyButton>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
