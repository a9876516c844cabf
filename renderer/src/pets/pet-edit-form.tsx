import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { CustomField } from '../../../shared/contract';
import type { MirrorPet } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { type LeaveGuard, useTypedSince } from '../components/leave-guard';
import { useFocusWhen } from '../lib/use-focus-when';
import { useOutboxWrite } from '../lib/use-outbox-write';
import { buildPetUpdate, draftFromPet, type PetDraft } from './pet-form';
import { PetFormBody } from './pet-form-body';

/** The Edit form of a pet in the drawer: sends only the changed fields through the outbox. */
export function PetEditForm({
  pet,
  customFields,
  statuses,
  editGuard,
  onDone,
}: {
  pet: MirrorPet;
  customFields: readonly CustomField[];
  statuses: readonly string[];
  /** Asks before typed changes are left by Cancel (the drawer's own close asks through the same guard). */
  editGuard: LeaveGuard;
  /** The form is done with: `saved` after a Save went through, false after Cancel. */
  onDone(saved: boolean): void;
}) {
  const api = useDesk();
  const [original] = useState<PetDraft>(() => draftFromPet(pet.record));
  const [draft, setDraft] = useState<PetDraft>(original);
  useTypedSince(draft, editGuard.reportTyped);
  const write = useOutboxWrite();
  const { errors, error, saving, showInvalid, submit } = write;
  const [notice, setNotice] = useState<string>();
  // The summary under the form speaks after a Save was tried; a field left wrong says so at the field itself.
  const [triedSave, setTriedSave] = useState(false);
  // Edit, which had the focus, went away with the pet's page: the form's heading takes it.
  const heading = useFocusWhen<HTMLHeadingElement>(true);

  async function save(force: boolean) {
    setNotice(undefined);
    setTriedSave(true);
    const built = buildPetUpdate(original, draft, customFields);
    if (built.ok === 'unchanged') {
      setNotice('Nothing has changed yet.');
      return;
    }
    if (built.ok === false) return showInvalid(built.errors);
    const queued = await submit(() =>
      api.call('outbox.updatePet', { id: pet.record.id, fields: built.fields, force }),
    );
    if (queued) onDone(true);
  }

  return (
    <form
      aria-label="Edit pet"
      onSubmit={(event) => {
        event.preventDefault();
        void save(false);
      }}
    >
      <Stack gap="lg">
        <Title order={3} ref={heading} tabIndex={-1}>
          Edit {pet.record.name}
        </Title>
        <Text size="sm" c="dimmed">
          Only the fields you change are saved; other desks see them at their next sync.
        </Text>
        <PetFormBody
          draft={draft}
          original={original}
          onDraftChange={setDraft}
          write={write}
          onSaveAnyway={() => void save(true)}
          customFields={customFields}
          statuses={statuses}
          compact
        />
        <Stack gap="xs" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
          {triedSave && Object.keys(errors).length > 0 && (
            <Text size="sm" c="red" role="status">
              Please check the marked fields above.
            </Text>
          )}
          {error && Object.keys(errors).length === 0 && <DeskErrorAlert error={error} title="Not saved" />}
          {notice && <Text size="sm">{notice}</Text>}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={editGuard.guard(() => onDone(false))}>
              Cancel
            </Button>
            <BusyButton type="submit" loading={saving}>
              Save changes
            </BusyButton>
          </Group>
        </Stack>
      </Stack>
    </form>
  );
}
