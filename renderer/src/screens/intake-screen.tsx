import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { DuplicateWarnings } from '../components/duplicate-warnings';
import { PetDrawer } from '../components/pet-drawer';
import { PetFields } from '../components/pet-fields';
import { ScreenHeader } from '../components/screen-header';
import { useFollowedId, useReloadOnChange } from '../lib/live-data';
import { buildPetCreate, emptyPetDraft, type PetDraft } from '../lib/pet-form';
import { useOutboxWrite } from '../lib/use-outbox-write';
import { humanize } from '../lib/words';

export function IntakeScreen() {
  const api = useDesk();
  const fields = useDeskQuery('mirror.customFields', { entity: 'pet' });
  const statuses = useDeskQuery('mirror.pets.statuses');
  const [draft, setDraft] = useState<PetDraft>(() => emptyPetDraft());
  const { errors, error, warnings, saving, showInvalid, submit, dismissWarnings, reset } = useOutboxWrite();
  const [saved, setSaved] = useState<{ id: string; name: string }[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);

  async function save(force: boolean) {
    const built = buildPetCreate(draft);
    if (!built.ok) return showInvalid(built.errors);
    const queued = await submit(() => api.call('outbox.createPet', { fields: built.fields, force }));
    if (!queued) return;
    setSaved((previous) => [{ id: queued.entityId, name: draft.name.trim() }, ...previous]);
    setDraft(emptyPetDraft());
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }

  const errorCount = Object.keys(errors).length;
  return (
    <>
      <ScreenHeader
        title="Intake"
        description="Record an animal the moment it arrives. Intakes saved here are kept on this desk and sent to the shelter’s server when the connection is back."
      />
      <Stack gap="lg">
        {saved.map((pet) => (
          <SavedIntake key={pet.id} id={pet.id} name={pet.name} onOpen={setOpenId} />
        ))}
        {fields.data && fields.data.fetchedAt === null && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle />}>
            Your shelter’s own fields arrive with the first sync. You can record the intake now and add them
            later.{' '}
            <Anchor href="#/settings" size="sm">
              Connect under Settings
            </Anchor>
          </Alert>
        )}
        <Paper withBorder radius="lg" p="xl">
          <form
            aria-label="New pet"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save(false);
            }}
          >
            <Stack gap="lg">
              <PetFields
                draft={draft}
                onChange={setDraft}
                errors={errors}
                customFields={fields.data?.fields ?? []}
                statuses={statuses.data ?? []}
              />
              {errorCount > 0 && (
                <Alert color="red" variant="light" role="alert" title="Please check the marked fields">
                  {Object.entries(errors)
                    .map(([field, message]) => `${humanize(field)} ${message}`)
                    .join('; ')}
                </Alert>
              )}
              {error && errorCount === 0 && <DeskErrorAlert error={error} title="Not saved" />}
              {warnings.length > 0 && (
                <DuplicateWarnings
                  warnings={warnings}
                  saving={saving}
                  onOverride={() => void save(true)}
                  onCancel={dismissWarnings}
                  onOpen={setOpenId}
                />
              )}
              <Group justify="flex-end" gap="sm">
                <Button
                  variant="default"
                  onClick={() => {
                    setDraft(emptyPetDraft());
                    reset();
                  }}
                >
                  Clear
                </Button>
                <Button type="submit" loading={saving} leftSection={<IconPlus size={18} />}>
                  Save intake
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Stack>
      <PetDrawer id={openId} onClose={() => setOpenId(null)} />
    </>
  );
}

/**
 * A pet saved from this screen: pending until the server accepts it (and gives it its own id), then "synced".
 */
function SavedIntake({ id, name, onOpen }: { id: string; name: string; onOpen(id: string): void }) {
  const currentId = useFollowedId('pet', id);
  const pet = useDeskQuery('mirror.pets.get', { id: currentId });
  useReloadOnChange(['pets'], pet.reload);
  const gone = pet.error?.code === 'not_found';
  const synced = pet.data ? !pet.data.pending && pet.data.presence !== 'local' : false;
  const line = synced
    ? 'The shelter’s server has it.'
    : gone
      ? 'No longer waiting on this desk: it was sent, or discarded under Sync.'
      : 'Saved on this desk. It is sent to the shelter’s server when the connection allows.';
  return (
    <Card withBorder radius="lg" p="md" aria-label={`Saved intake ${name}`}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color={synced ? 'teal' : 'yellow'} variant="light" size="lg" radius="xl">
            {synced ? <IconCircleCheck size={20} /> : <IconClockHour4 size={20} />}
          </ThemeIcon>
          <Stack gap={0}>
            <Title order={4}>{name} is recorded</Title>
            <Text size="sm" c="dimmed">
              {line}
            </Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Badge color={synced ? 'teal' : gone ? 'gray' : 'yellow'} variant="light">
            {synced ? 'Synced' : gone ? 'Not here' : 'Not sent yet'}
          </Badge>
          {!gone && (
            <Button variant="light" size="xs" onClick={() => onOpen(currentId)}>
              Open
            </Button>
          )}
        </Group>
      </Group>
    </Card>
  );
}
