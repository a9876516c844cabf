import { Button, Group, Paper, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { ConfirmModal } from '../components/confirm-modal';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { FirstSyncNotice } from '../components/first-sync-notice';
import { keepTyping } from '../components/leave-guard';
import { RestoredDraftNotice } from '../components/restored-draft-notice';
import { SAVED_INTAKES_KEY, SavedRecordCard } from '../components/saved-record-card';
import { ScreenHeader } from '../components/screen-header';
import { useNotSetUp, useStandalone } from '../lib/connection';
import { useKeptDraft } from '../lib/kept-draft';
import { useMetadataQuery } from '../lib/live-data';
import { scrollBehavior } from '../lib/motion';
import { readKeptDraft } from '../lib/read-kept-draft';
import { useRememberedState } from '../lib/remembered';
import { useOutboxWrite } from '../lib/use-outbox-write';
import { PetDrawer } from '../pets/pet-drawer';
import { buildPetCreate, emptyPetDraft, type PetDraft } from '../pets/pet-form';
import { PetFormBody } from '../pets/pet-form-body';
import { takeIntakeFocusRequest } from './focus-request';

const readKeptPetDraft = (kept: unknown) => readKeptDraft(emptyPetDraft(), kept);

/** Where an intake saved on this desk goes: nothing said until the desk has said whether it runs the shelter. */
function whereIntakesGo(standalone: boolean | undefined, notSetUp: boolean | undefined): string {
  if (standalone === undefined) return '';
  if (standalone) {
    return ' This desk runs your shelter: an intake saved here is in its records at once, for every desk that shares it.';
  }
  return notSetUp
    ? ' This desk is not set up yet: intakes saved here wait on it until it is connected to your shelter’s server or runs your shelter itself.'
    : ' Intakes saved here are kept on this desk and sent to the shelter’s server when the connection is back.';
}

export function IntakeScreen() {
  const api = useDesk();
  const fields = useMetadataQuery('mirror.customFields', { entity: 'pet' });
  const statuses = useMetadataQuery('mirror.pets.statuses');
  // Asked when the screen opens and after each intake saved here, not on every synced page (the query reads the
  // shelter ids, a table scan while a first sync has dropped their index).
  const nextShelterId = useDeskQuery('mirror.pets.nextShelterId');
  // A half-typed intake stays while staff look something up on another screen; an untouched one starts afresh (today).
  const [blank, setBlank] = useState(() => emptyPetDraft());
  const [typedDraft, setDraft] = useRememberedState<PetDraft | null>('intake.draft', null);
  const draft = typedDraft ?? blank;
  const typed = typedDraft !== null && JSON.stringify(typedDraft) !== JSON.stringify(blank);
  // Not undone when the screen goes: the draft stays, in this window and on the desk (a reload brings it back).
  useEffect(() => keepTyping('intake', typed), [typed]);
  const kept = useKeptDraft('intake', readKeptPetDraft);
  // What the desk kept is brought back once the window opens (nothing typed here yet); kept again from then on.
  const [restoreAsked, setRestoreAsked] = useState(typedDraft !== null);
  const { restore, keep } = kept;
  useEffect(() => {
    if (restoreAsked) return;
    void restore((draft) => setDraft((current) => current ?? draft.value)).finally(() =>
      setRestoreAsked(true),
    );
  }, [restoreAsked, restore, setDraft]);
  useEffect(() => {
    if (restoreAsked) keep(typed ? typedDraft : null);
  }, [restoreAsked, keep, typed, typedDraft]);
  /** The next intake starts on today's date, even on a screen left open overnight. */
  const startAfresh = () => {
    setDraft(null);
    setBlank(emptyPetDraft());
    kept.dismissRestored();
  };
  const [askingClear, setAskingClear] = useState(false);
  const clear = () => {
    setAskingClear(false);
    startAfresh();
    reset();
  };
  const write = useOutboxWrite();
  const { errors, error, saving, showInvalid, submit, reset } = write;
  // Confirmations stay while staff visit other screens, so they can see each record reach the server.
  const [saved, setSaved] = useRememberedState<{ id: string; name: string }[]>(SAVED_INTAKES_KEY, []);
  const [openId, setOpenId] = useState<string | null>(null);
  const [justSaved, setJustSaved] = useState<string>();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (takeIntakeFocusRequest())
      form.current?.querySelector<HTMLInputElement>('[data-field="name"]')?.focus();
  }, []);
  const standalone = useStandalone();
  const notSetUp = useNotSetUp();

  async function save(force: boolean) {
    const built = buildPetCreate(draft, fields.data?.fields);
    if (!built.ok) return showInvalid(built.errors);
    const queued = await submit(() => api.call('outbox.createPet', { fields: built.fields, force }));
    if (!queued) return;
    setSaved((previous) => [{ id: queued.entityId, name: draft.name.trim() }, ...previous]);
    setJustSaved(queued.entityId);
    nextShelterId.reload();
    startAfresh();
    window.scrollTo({ top: 0, behavior: scrollBehavior() });
  }

  const errorCount = Object.keys(errors).length;
  return (
    <>
      <ScreenHeader
        title="Intake"
        description={`Record an animal the moment it arrives.${whereIntakesGo(standalone, notSetUp)}`}
      />
      <Stack gap="lg">
        {saved.map((pet) => (
          <SavedRecordCard
            key={pet.id}
            kind="pet"
            id={pet.id}
            name={pet.name}
            title={(name) => `${name} is recorded`}
            label={(name) => `Saved intake ${name}`}
            focused={pet.id === justSaved}
            standalone={standalone}
            onOpen={setOpenId}
            onDismiss={() => setSaved((previous) => previous.filter((each) => each.id !== pet.id))}
          />
        ))}
        {kept.restored && typed && (
          <RestoredDraftNotice savedAt={kept.restored.savedAt} onClose={kept.dismissRestored}>
            This intake was being typed when the desk was reloaded or closed; it is as it was left. Save it,
            or clear the form to start another.
          </RestoredDraftNotice>
        )}
        {fields.data && fields.data.fetchedAt === null && (
          <FirstSyncNotice>
            Your shelter’s own fields arrive with the first sync. You can record the intake now and add them
            later.
          </FirstSyncNotice>
        )}
        <Paper withBorder radius="lg" p="xl">
          <form
            ref={form}
            aria-label="New pet"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save(false);
            }}
          >
            <Stack gap="lg">
              <PetFormBody
                draft={draft}
                onDraftChange={setDraft}
                write={write}
                onSaveAnyway={() => void save(true)}
                onOpenDuplicate={setOpenId}
                customFields={fields.data?.fields ?? []}
                statuses={statuses.data ?? []}
                shelterIdSuggestion={nextShelterId.data?.next ?? undefined}
              >
                {error && errorCount === 0 && <DeskErrorAlert error={error} title="Not saved" />}
              </PetFormBody>
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => (typed ? setAskingClear(true) : clear())}>
                  Clear
                </Button>
                <BusyButton type="submit" loading={saving} leftSection={<IconPlus aria-hidden size={18} />}>
                  Save intake
                </BusyButton>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Stack>
      <PetDrawer
        id={openId}
        onClose={() => {
          setOpenId(null);
          // A shelter id put right in the drawer (lpr-0002 made LPR-0002) is the one the next number follows.
          nextShelterId.reload();
        }}
        onOpen={setOpenId}
      />
      <ConfirmModal
        opened={askingClear}
        title="Clear this intake?"
        confirmLabel="Clear the form"
        cancelLabel="Keep it"
        onConfirm={clear}
        onCancel={() => setAskingClear(false)}
      >
        What was typed here is not saved yet: clearing the form throws it away.
      </ConfirmModal>
    </>
  );
}
