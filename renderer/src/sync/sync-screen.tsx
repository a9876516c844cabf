import {
  Button,
  Card,
  Group,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconBuildingCommunity, IconRefresh, IconServer2 } from '@tabler/icons-react';
import { useState } from 'react';
import type { DeskError, DeskStatus, SyncProgress } from '../../../shared/desk-api';
import { useDesk, useDeskStatus } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { ScreenHeader } from '../components/screen-header';
import { describeWhen, lookOf } from '../components/status-presentation';
import { useStandalone } from '../lib/connection';
import { toDeskError } from '../lib/desk-error';
import { finishingWords, percentSoFar, recordsSoFar } from '../lib/sync-progress';
import { FullCheckCard } from './full-check-card';
import { OtherDesksCard } from './other-desks-card';
import { OutboxPanel } from './outbox-panel';
import { answerStillHolds, type PressAnswer, pressAnswer } from './sync-now-answer';

export function SyncScreen() {
  const { status, error } = useDeskStatus();
  // A standalone desk is the shelter's server: it syncs with nobody, so it has no server to check or to sync now.
  // Until the connection is known, neither is shown (a standalone desk would flash them).
  const mode = useStandalone();
  const standalone = mode === true;
  const connected = status !== undefined && status.state !== 'not-connected';
  return (
    <>
      <ScreenHeader
        title="Sync"
        description={
          standalone
            ? 'This desk is your shelter’s server: the records are kept here, and the desks on your network that you let in sync to it. A change made here goes into the records as soon as it is saved; any that waits or was refused is listed below.'
            : 'How this desk stays in step with your shelter. Work never waits for the network: changes are kept here and sent when the connection allows.'
        }
        actions={
          connected && mode === false ? (
            <SyncNowButton busy={status.state === 'syncing'} lastSyncedAt={status.lastSyncedAt} />
          ) : undefined
        }
      />
      <Stack gap="lg">
        {error && <DeskErrorAlert error={error} title="The desk did not answer" />}
        {status ? (
          <StatusCard status={status} standalone={standalone} />
        ) : (
          !error && <Loader aria-label="Loading sync status" />
        )}
        {standalone && <OtherDesksCard />}
        <OutboxPanel />
        {mode === false && <FullCheckCard connected={connected} />}
        {!connected && <SetupCards />}
      </Stack>
    </>
  );
}

/** A pass now (pull and push); the status card shows its progress, problems show there too. */
function SyncNowButton({ busy, lastSyncedAt }: { busy: boolean; lastSyncedAt: string | null }) {
  const api = useDesk();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<DeskError>();
  const [answer, setAnswer] = useState<PressAnswer>();
  return (
    <Stack gap={4} align="flex-end">
      <BusyButton
        leftSection={<IconRefresh aria-hidden size={18} />}
        loading={running || busy}
        onClick={() => {
          setRunning(true);
          setError(undefined);
          setAnswer(undefined);
          const lastSyncedAtWhenPressed = lastSyncedAt;
          api
            .call('sync.now')
            .then((result) => setAnswer(pressAnswer(result, new Date(), lastSyncedAtWhenPressed)))
            .catch((caught: unknown) => setError(toDeskError(caught)))
            .finally(() => setRunning(false));
        }}
      >
        Sync now
      </BusyButton>
      {error && (
        <Text size="xs" c="red">
          {error.message}
        </Text>
      )}
      <Text size="xs" c="dimmed" role="status" maw={320} ta="right">
        {answer && answerStillHolds(answer, lastSyncedAt) ? answer.text : undefined}
      </Text>
    </Stack>
  );
}

function SetupCards() {
  return (
    <Stack gap="lg">
      <Group justify="space-between" mt="sm">
        <Title order={3} size="h4">
          Two ways to run
        </Title>
        <Button component="a" href="#/settings" variant="light">
          Set up the connection
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="lg" p="lg">
          <Group gap="sm" mb="xs" wrap="nowrap">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconBuildingCommunity aria-hidden size={20} />
            </ThemeIcon>
            <Text fw={600}>Connected</Text>
          </Group>
          <Text size="sm" c="dimmed">
            This desk syncs with the animal placement service your shelter already uses, or with another
            Shelter Desk on your network that runs standalone. You need the server’s address and an API key
            from your shelter’s coordinator.
          </Text>
        </Card>
        <Card withBorder radius="lg" p="lg">
          <Group gap="sm" mb="xs" wrap="nowrap">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconServer2 aria-hidden size={20} />
            </ThemeIcon>
            <Text fw={600}>Standalone</Text>
          </Group>
          <Text size="sm" c="dimmed">
            This desk is the shelter’s server: it keeps the records itself, and other desks on the same
            network sync to it. Good for a single shelter without an online service.
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** The Sync screen's line under the status: the list and its records and pages, or the search being prepared. */
function progressWords(progress: SyncProgress): string {
  const finishing = finishingWords(progress);
  if (finishing === undefined) {
    return `${progress.phase}: ${recordsSoFar(progress)} records, ${progress.pagesDone} ${progress.pagesDone === 1 ? 'page' : 'pages'}`;
  }
  // Only list indexes left to build (a finish cut off earlier and resumed): no records to count.
  return progress.recordsTotal ? `${finishing}, ${recordsSoFar(progress)} records indexed` : finishing;
}

function StatusCard({ status, standalone }: { status: DeskStatus; standalone: boolean }) {
  const look = lookOf(status, standalone);
  const Icon = look.icon;
  const progress = status.progress;
  const percent = progress ? percentSoFar(progress) : undefined;
  const facts: Array<[string, string]> = standalone
    ? [
        ['Shelter records', 'Kept on this desk'],
        ['Waiting to be recorded', String(status.pending)],
        ['Needs a look', String(status.needsAttention)],
      ]
    : [
        ['Server', status.remote ?? 'None yet'],
        ['Last synced', describeWhen(status.lastSyncedAt)],
        ['Waiting to send', String(status.pending)],
        ['Needs a look', String(status.needsAttention)],
      ];
  return (
    <Card withBorder radius="lg" p="lg">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon color={look.color} variant="light" size={48} radius="xl">
          <Icon aria-hidden size={26} />
        </ThemeIcon>
        <Stack gap={4} style={{ flex: 1 }}>
          <Title order={3} size="h4">
            {look.label}
          </Title>
          <Text size="sm" c="dimmed">
            {status.message ?? look.advice}
          </Text>
          {progress && (
            <Stack gap={4} mt="xs">
              <Text size="sm">{progressWords(progress)}</Text>
              {percent !== undefined && <Progress value={percent} animated aria-label="Sync progress" />}
            </Stack>
          )}
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: facts.length }} mt="lg" spacing="md">
        {facts.map(([label, value]) => (
          <Fact key={label} label={label} value={value} />
        ))}
      </SimpleGrid>
      {status.error && (
        <Stack mt="md">
          <DeskErrorAlert
            error={status.error}
            title={standalone ? 'Last update failed' : 'Last sync failed'}
          />
        </Stack>
      )}
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}
