import { Drawer, Loader, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { MirrorPet } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { CodeLoadFailure } from '../components/code-load-failure';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { type LeaveGuard, useLeaveGuard } from '../components/leave-guard';
import { useDrawerClose } from '../lib/drawer-close';
import { useDrawerHistory } from '../lib/drawer-history';
import { useMetadataQuery, useRefusedEntries, useReloadOnChange } from '../lib/live-data';
import { PetView } from './pet-view';

type EditFormCode = typeof import('./pet-edit-form');
let editFormLoading: Promise<EditFormCode> | undefined;
/** Set once loaded: a drawer opened after that has the form at its first render, with no second one. */
let editFormLoaded: EditFormCode | undefined;

/**
 * The edit form's code, loaded when a pet is opened rather than with the list: it brings the pet schemas the form
 * checks with (and zod), which a new tab's first rows do not need. `failed` once it could not be loaded (the desk
 * was updated while this window stayed open, or stopped answering).
 */
function useEditFormCode(): { code?: EditFormCode; failed: boolean } {
  const [state, setState] = useState<{ code?: EditFormCode; failed: boolean }>({
    code: editFormLoaded,
    failed: false,
  });
  const loaded = state.code !== undefined;
  useEffect(() => {
    if (loaded) return;
    let current = true;
    editFormLoading ??= import('./pet-edit-form');
    editFormLoading.then(
      (code) => {
        editFormLoaded = code;
        if (current) setState({ code, failed: false });
      },
      () => {
        editFormLoading = undefined;
        if (current) setState({ failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [loaded]);
  return state;
}

/** A pet's full record in a side drawer: every field, a quick status change, and an Edit form. */
export function PetDrawer({
  id,
  initial,
  onClose,
  onOpen,
}: {
  id: string | null;
  /** The record as a list already has it: shown at once, replaced by the core's answer. */
  initial?: MirrorPet | undefined;
  onClose(): void;
  /** Opens the drawer of a pet again (Forward, or Back onto the screen while it showed that pet). */
  onOpen(id: string): void;
}) {
  const editGuard = useLeaveGuard('this edit');
  // At an event a hold typed for a family and lost to a stray Escape leaves the pet "Available".
  const statusGuard = useLeaveGuard('this status change');
  const close = useDrawerClose(id !== null, statusGuard.guard(editGuard.guard(onClose)));
  useDrawerHistory('pet', id, close, onOpen);
  return (
    <>
      <Drawer
        opened={id !== null}
        onClose={close}
        position="right"
        size="xl"
        title={<Text fw={600}>Pet details</Text>}
      >
        {id !== null && (
          <PetDetail
            key={id}
            id={id}
            initial={initial}
            editGuard={editGuard}
            onStatusTyped={statusGuard.reportTyped}
          />
        )}
      </Drawer>
      {editGuard.modal}
      {statusGuard.modal}
    </>
  );
}

function PetDetail({
  id,
  initial,
  editGuard,
  onStatusTyped,
}: {
  id: string;
  initial?: MirrorPet | undefined;
  editGuard: LeaveGuard;
  onStatusTyped(typed: boolean): void;
}) {
  const query = useDeskQuery('mirror.pets.get', { id });
  const pet = { ...query, data: query.data ?? (initial?.record.id === id ? initial : undefined) };
  const fields = useMetadataQuery('mirror.customFields', { entity: 'pet' });
  const statuses = useMetadataQuery('mirror.pets.statuses');
  const refused = useRefusedEntries();
  const [editing, setEditing] = useState(false);
  /** How the edit form was left, once it was: its Save or Cancel had the focus, and a Save is confirmed. */
  const [leftEditing, setLeftEditing] = useState<'saved' | 'cancelled'>();
  const editForm = useEditFormCode();
  useReloadOnChange(['pets'], pet.reload);

  if (pet.error) return <DeskErrorAlert error={pet.error} title="This pet could not be opened" />;
  if (!pet.data) return <Loader aria-label="Loading pet" />;
  const customFields = fields.data?.fields ?? [];

  if (editing && !editForm.code) {
    if (!editForm.failed) return <Loader aria-label="Loading the edit form" />;
    return <CodeLoadFailure title="The edit form could not be loaded" />;
  }
  return editing && editForm.code ? (
    <editForm.code.PetEditForm
      pet={pet.data}
      customFields={customFields}
      statuses={statuses.data ?? []}
      editGuard={editGuard}
      onDone={(saved) => {
        setEditing(false);
        setLeftEditing(saved ? 'saved' : 'cancelled');
        pet.reload();
      }}
    />
  ) : (
    <PetView
      pet={pet.data}
      customFields={customFields}
      statuses={statuses.data ?? []}
      refused={refused.get(pet.data.record.id) ?? []}
      focusEdit={leftEditing !== undefined}
      justSaved={leftEditing === 'saved'}
      onEdit={() => setEditing(true)}
      onStatusTyped={onStatusTyped}
    />
  );
}
