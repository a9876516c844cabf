import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Collapse,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconCheck,
  IconChevronDown,
  IconClockHour4,
  IconRefresh,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { DeskError, OutboxEntry } from '../../../shared/desk-api';
import { useDesk, useDeskEvent, useDeskQuery } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { ConfirmModal } from '../components/confirm-modal';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { describeWhen } from '../components/status-presentation';
import { toDeskError } from '../lib/desk-error';
import { requestOpen } from '../lib/open-record';
import { ConflictCard, conflictsByRecord, useCustomFieldLabels } from './conflict-card';
import {
  applicationPetIds,
  changeInWords,
  errorInWords,
  PET_FORM_REMEDY,
  putRightInPetForm,
} from './outbox-words';
import { nextTry, readableTimes } from './retry-times';

/** The queue of local changes: what waits, what is retried, what the server refused and why. */
export function OutboxPanel() {
  const api = useDesk();
  const outbox = useDeskQuery('outbox.list');
  const conflicts = useDeskQuery('outbox.conflicts');
  const fieldLabels = useCustomFieldLabels();
  useDeskEvent('outbox', () => {
    outbox.reload();
    conflicts.reload();
  });
  const [error, setError] = useState<DeskError>();
  const [busy, setBusy] = useState<string>();
  const [editing, setEditing] = useState<OutboxEntry>();
  // Kept after the question closes, so its words stay while it fades out.
  const [discarding, setDiscarding] = useState<{ entry: OutboxEntry; title: string; confirmed?: boolean }>();
  const [asking, setAsking] = useState(false);
  const [discarded, setDiscarded] = useState<string>();
  // The discarded entry's card (and its button) is gone: focus goes to what says so, not to the page's body.
  const discardedNote = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (discarded) discardedNote.current?.focus();
  }, [discarded]);

  async function discard(entry: OutboxEntry, title: string) {
    setDiscarding({ entry, title, confirmed: true });
    await act(`discard:${entry.id}`, async () => {
      await api.call('outbox.discard', { id: entry.id });
      setDiscarded(title);
    });
    setAsking(false);
  }

  async function act(key: string, action: () => Promise<unknown>) {
    setBusy(key);
    setError(undefined);
    setDiscarded(undefined);
    try {
      await action();
      outbox.reload();
      conflicts.reload();
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setBusy(undefined);
    }
  }

  const entries = outbox.data?.entries ?? [];
  const counts = outbox.data?.counts;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Changes made on this desk
        </Title>
        {counts && counts.pending > 0 && (
          <BusyButton
            variant="light"
            size="xs"
            leftSection={<IconRefresh aria-hidden size={14} />}
            loading={busy === 'all'}
            onClick={() => void act('all', () => api.call('outbox.retry'))}
          >
            Send all now
          </BusyButton>
        )}
      </Group>
      {counts?.pausedReason && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          title="Sending is paused"
        >
          {counts.pausedReason} Enter a new API key under Settings, or press “Send all now” to try again.
        </Alert>
      )}
      {error && <DeskErrorAlert error={error} />}
      {discarded && (
        <Alert
          ref={discardedNote}
          tabIndex={-1}
          color="gray"
          variant="light"
          icon={<IconArrowBackUp aria-hidden />}
          role="status"
          title="Change discarded"
        >
          “{discarded}” was not sent, and this desk no longer shows it.
        </Alert>
      )}
      {outbox.error && <DeskErrorAlert error={outbox.error} title="The outbox did not load" />}
      {!outbox.data && outbox.loading && <Loader aria-label="Loading outbox" />}
      {conflictsByRecord(conflicts.data ?? []).map((record) => {
        const key = `conflict:${record[0]?.entityType}:${record[0]?.entityId}`;
        return (
          <ConflictCard
            key={key}
            conflicts={record}
            labels={fieldLabels}
            busy={busy === key}
            onChoose={(choice) =>
              void act(key, () =>
                api.call('outbox.resolveConflict', { ids: record.map((conflict) => conflict.id), choice }),
              )
            }
          />
        );
      })}
      {outbox.data && entries.length === 0 && (
        <Card withBorder radius="lg" p="lg">
          <Group gap="sm">
            <IconCheck aria-hidden size={20} color="var(--mantine-color-teal-6)" />
            <Text size="sm">Nothing waiting: no change made on this desk is left to send.</Text>
          </Group>
        </Card>
      )}
      {entries.map((entry) => (
        <OutboxEntryCard
          key={entry.id}
          entry={entry}
          busy={busy?.endsWith(`:${entry.id}`) ? busy : undefined}
          onRetry={() => void act(`retry:${entry.id}`, () => api.call('outbox.retry', { id: entry.id }))}
          onDiscard={(title) => {
            setDiscarding({ entry, title });
            setAsking(true);
          }}
          onEdit={() => setEditing(entry)}
        />
      ))}
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title="Edit and resubmit"
        size="lg"
      >
        {editing && <EditEntry entry={editing} onDone={() => setEditing(undefined)} />}
      </Modal>
      <ConfirmModal
        opened={asking}
        title="Discard this change?"
        confirmLabel="Discard change"
        cancelLabel="Keep it"
        busy={discarding !== undefined && busy === `discard:${discarding.entry.id}`}
        // Discarded, its card and button are gone: the focus goes to the note that says so.
        returnFocus={!discarding?.confirmed}
        onConfirm={() => discarding && void discard(discarding.entry, discarding.title)}
        onCancel={() => setAsking(false)}
      >
        “{discarding?.title}”{' '}
        {discarding?.entry.state === 'needs-attention'
          ? 'was refused by the shelter’s server.'
          : 'has not reached the shelter’s server.'}{' '}
        Discarding it undoes it on this desk as well, and it cannot be brought back: to keep it, press “Keep
        it”.
      </ConfirmModal>
    </Stack>
  );
}

function entryState(entry: OutboxEntry): { label: string; color: string } {
  if (entry.state === 'needs-attention') return { label: 'Needs attention', color: 'red' };
  // Handed to the network before and due now: the desk is (re)sending it at this moment.
  const due = entry.nextAttemptAt === null || Date.parse(entry.nextAttemptAt) <= Date.now();
  if (entry.firstSentAt !== null && due && !entry.waitingFor) return { label: 'Sending', color: 'blue' };
  if (entry.attempts > 0) return { label: 'Retrying', color: 'orange' };
  if (entry.waitingFor) return { label: 'Waiting', color: 'gray' };
  return { label: 'Not sent yet', color: 'yellow' };
}

function OutboxEntryCard({
  entry,
  busy,
  onRetry,
  onDiscard,
  onEdit,
}: {
  entry: OutboxEntry;
  busy: string | undefined;
  onRetry(): void;
  onDiscard(title: string): void;
  onEdit(): void;
}) {
  const state = entryState(entry);
  const refused = entry.state === 'needs-attention';
  const petNames = usePetNames(applicationPetIds(entry));
  const title = changeInWords(entry, petNames);
  const [details, setDetails] = useState(false);
  const inPetForm = putRightInPetForm(entry);
  const [, navigate] = useLocation();
  const openPet = () => {
    navigate('/pets');
    requestOpen({ kind: 'pet', id: entry.entityId });
  };
  return (
    <Card component="article" withBorder radius="lg" p="md" aria-label={title}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ flex: 1 }}>
          <Group gap="xs">
            <Badge
              color={state.color}
              variant="light"
              leftSection={
                refused ? (
                  <IconAlertTriangle aria-hidden size={12} />
                ) : (
                  <IconClockHour4 aria-hidden size={12} />
                )
              }
            >
              {state.label}
            </Badge>
            <Text fw={600} size="sm">
              {title}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            Made {describeWhen(entry.createdAt)}
            {entry.nextAttemptAt && !refused && ` · next try ${nextTry(entry.nextAttemptAt)}`}
          </Text>
          {entry.waitingFor && !(entry.attempts > 0 && entry.nextAttemptAt) && (
            <Text size="xs" c="dimmed">
              Waits for {readableTimes(entry.waitingFor)}
            </Text>
          )}
          {entry.lastError && !refused && (
            <Text size="sm" c="orange">
              {errorInWords(entry.lastError, false)}
            </Text>
          )}
          {entry.lastError && refused && (
            <Alert color="red" variant="light" p="xs" mt={4}>
              <Text size="sm">
                {inPetForm
                  ? errorInWords(entry.lastError, true, PET_FORM_REMEDY)
                  : errorInWords(entry.lastError, true)}
              </Text>
            </Alert>
          )}
          <Button
            variant="subtle"
            size="compact-xs"
            color="gray"
            w="fit-content"
            aria-expanded={details}
            onClick={() => setDetails((open) => !open)}
            rightSection={
              <IconChevronDown
                aria-hidden
                size={12}
                style={{ transform: details ? 'rotate(180deg)' : undefined }}
              />
            }
          >
            Details
          </Button>
          <Collapse expanded={details}>
            <Stack gap={2} aria-label="Technical details">
              <Text size="xs" c="dimmed">
                <Code>
                  {entry.method} {entry.path}
                </Code>{' '}
                · {entry.attempts} attempt{entry.attempts === 1 ? '' : 's'} · queued as “{entry.summary}”
              </Text>
              {entry.lastError && (
                <Text size="xs" c="dimmed">
                  {entry.lastError.status !== null && `HTTP ${entry.lastError.status} · `}
                  {entry.lastError.code && (
                    <>
                      code <Code>{entry.lastError.code}</Code> ·{' '}
                    </>
                  )}
                  {entry.lastError.message}
                </Text>
              )}
              {entry.lastError?.requestId && (
                <Text size="xs" c="dimmed">
                  Request id <Code>{entry.lastError.requestId}</Code>
                </Text>
              )}
              <Text size="xs" c="dimmed">
                Idempotency key <Code>{entry.idempotencyKey}</Code>
              </Text>
            </Stack>
          </Collapse>
        </Stack>
        <Group gap={6} wrap="nowrap">
          <BusyButton size="xs" variant="light" loading={busy === `retry:${entry.id}`} onClick={onRetry}>
            {refused ? 'Retry' : 'Send now'}
          </BusyButton>
          {refused && entry.entityType === 'pet' && (
            <Button size="xs" variant="default" onClick={openPet}>
              Open pet
            </Button>
          )}
          {refused && (
            <Button size="xs" variant="default" onClick={onEdit}>
              {inPetForm ? 'Edit JSON' : 'Edit'}
            </Button>
          )}
          {entry.firstSentAt === null || refused ? (
            <BusyButton
              size="xs"
              variant="subtle"
              color="red"
              loading={busy === `discard:${entry.id}`}
              onClick={() => onDiscard(title)}
            >
              Discard
            </BusyButton>
          ) : (
            <Tooltip label="Already handed to the network: it can no longer be taken back.">
              <Button size="xs" variant="subtle" color="gray" disabled>
                Discard
              </Button>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/** Names of the pets an application is for, looked up in the mirror (ids until they load). */
function usePetNames(ids: readonly string[]): ReadonlyMap<string, string> {
  const api = useDesk();
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `ids`.
  useEffect(() => {
    let current = true;
    void Promise.all(
      ids.map((id) =>
        api.call('mirror.pets.get', { id }).then(
          (pet) => [id, pet.record.name] as const,
          () => [id, 'a pet'] as const,
        ),
      ),
    ).then((pairs) => current && setNames(new Map(pairs)));
    return () => {
      current = false;
    };
  }, [api, key]);
  return names;
}

/** The body as JSON; the desk validates it again and resubmits it with a new key. */
function EditEntry({ entry, onDone }: { entry: OutboxEntry; onDone(): void }) {
  const api = useDesk();
  const [text, setText] = useState(() => JSON.stringify(entry.body, null, 2));
  const [error, setError] = useState<DeskError>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    setError(undefined);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      setError({
        code: 'invalid_input',
        message: 'This is not valid JSON: check quotes, commas and brackets.',
      });
      return;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      setError({ code: 'invalid_input', message: 'The body must be a JSON object ({ … }).' });
      return;
    }
    setSaving(true);
    try {
      await api.call('outbox.edit', { id: entry.id, body: body as Record<string, unknown> });
      onDone();
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm" fw={600}>
        {changeInWords(entry)}
      </Text>
      {entry.lastError && (
        <Text size="sm" c="red">
          {errorInWords(entry.lastError, true)}
        </Text>
      )}
      <Textarea
        label="Request body (JSON)"
        autosize
        minRows={8}
        maxRows={20}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
      {error && <DeskErrorAlert error={error} title="Not resubmitted" />}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <BusyButton onClick={() => void submit()} loading={saving}>
          Resubmit
        </BusyButton>
      </Group>
    </Stack>
  );
}
