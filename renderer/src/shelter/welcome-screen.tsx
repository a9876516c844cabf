import {
  Alert,
  Badge,
  Card,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBuildingWarehouse,
  IconCircleCheck,
  IconPlugConnected,
  IconSparkles,
  type TablerIcon,
} from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useLocation } from 'wouter';
import { parseConnectionCode } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { useSettings } from '../bridge/settings';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useConnection } from '../lib/connection';
import { PairingPreview, pairAndSync } from './pairing-preview';
import { useAction } from './use-shelter';

/** The first screen of a new desk: connect to a server, run the shelter here, or try the demo shelter. */
export function WelcomeScreen() {
  const overview = useDeskQuery('shelter.overview');
  // Set up means connected or running the shelter: an intake typed before choosing leaves the desk still to set up.
  const setupDone = overview.data && overview.data.role !== 'none';
  return (
    <Stack gap="lg" maw={1040} mx="auto">
      <Stack gap={4}>
        <Title order={2}>Welcome to Shelter Desk</Title>
        <Text c="dimmed" maw={720}>
          Shelter Desk keeps your shelter’s pets and people on this computer, so intake and look-ups work even
          when the internet does not. Choose how this desk starts; you can change it later under Settings.
        </Text>
      </Stack>
      {setupDone && (
        <Alert
          color="sage"
          variant="light"
          icon={<IconCircleCheck aria-hidden />}
          title="This desk is set up"
        >
          It is {overview.data?.role === 'standalone' ? 'running its own shelter' : 'connected to a server'}.
          Change that under Settings.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <ConnectCard disabled={Boolean(setupDone)} />
        <SetupCard
          choice="standalone"
          icon={IconBuildingWarehouse}
          title="Run this shelter here"
          badge="One office PC"
          disabled={Boolean(setupDone)}
          button="Start an empty shelter"
          asksShelterName
        >
          This desk holds the shelter’s records itself: no hosted service needed. Other desks on your network
          can connect to it later, and it backs itself up every day.
        </SetupCard>
        <SetupCard
          choice="demo"
          icon={IconSparkles}
          title="Try the demo shelter"
          badge="Made-up data"
          disabled={Boolean(setupDone)}
          button="Open the demo shelter"
        >
          A shelter with about 120 made-up pets, adopters and fosters, to look around safely. It is marked as
          a demo everywhere, and you can remove it later and start empty.
        </SetupCard>
      </SimpleGrid>
    </Stack>
  );
}

function ChoiceCard({
  icon: Icon,
  title,
  badge,
  children,
}: {
  icon: TablerIcon;
  title: string;
  badge: string;
  children: ReactNode;
}) {
  return (
    <>
      <Group justify="space-between" wrap="nowrap" mb="sm">
        <ThemeIcon size={48} radius="md" variant="light">
          <Icon aria-hidden size={28} stroke={1.6} />
        </ThemeIcon>
        <Badge variant="light" color="gray">
          {badge}
        </Badge>
      </Group>
      <Title order={3} size="h4" mb={6}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {children}
      </Text>
    </>
  );
}

function SetupCard({
  choice,
  button,
  disabled,
  asksShelterName = false,
  ...card
}: {
  choice: 'standalone' | 'demo';
  icon: TablerIcon;
  title: string;
  badge: string;
  button: string;
  disabled: boolean;
  /** Offers a box for the shelter's name (kept in Settings; kennel cards and agreements print it). */
  asksShelterName?: boolean;
  children: ReactNode;
}) {
  const api = useDesk();
  const [, navigate] = useLocation();
  const connection = useConnection();
  const action = useAction();
  const { settings, update } = useSettings();
  const [shelterName, setShelterName] = useState<string>();
  const typedName = shelterName ?? settings?.shelterName ?? '';
  async function start() {
    const done = await action.run(async () => {
      if (asksShelterName && typedName.trim() !== (settings?.shelterName ?? '')) {
        await update({ shelterName: typedName.trim() });
      }
      return api.call('shelter.setup', { choice });
    });
    if (!done) return;
    // Home is the Overview on a standalone desk: the window's connection must say so before it is opened.
    await connection.refresh();
    leaveWelcome(navigate);
  }
  return (
    <Card withBorder radius="lg" p="lg" component="section" aria-label={card.title}>
      <ChoiceCard {...card} />
      <Stack mt="auto" gap="sm">
        {asksShelterName && (
          <TextInput
            label="Your shelter’s name"
            description="Printed on kennel cards and agreements; change it later under Settings."
            placeholder="e.g. Riverside Animal Rescue"
            maxLength={80}
            value={typedName}
            disabled={disabled}
            onChange={(event) => setShelterName(event.currentTarget.value)}
          />
        )}
        <BusyButton onClick={() => void start()} loading={action.busy} disabled={disabled} fullWidth>
          {button}
        </BusyButton>
        {action.busy && (
          <Text size="xs" c="dimmed" role="status">
            Starting the shelter on this desk…
          </Text>
        )}
        {action.error && <DeskErrorAlert reveal error={action.error} title="The shelter did not start" />}
      </Stack>
    </Card>
  );
}

/** Address and key (or a pairing code from another desk), tested with a real sync before it is kept. */
function ConnectCard({ disabled }: { disabled: boolean }) {
  const api = useDesk();
  const [, navigate] = useLocation();
  const connection = useConnection();
  const [remote, setRemote] = useState('');
  const [apiKey, setApiKey] = useState('');
  const settings = useDeskQuery('settings.get');
  const [deskName, setDeskName] = useState<string>();
  const action = useAction();
  const code = parseConnectionCode(remote);

  async function connect(event: FormEvent) {
    event.preventDefault();
    if (code && code.kind !== 'key') {
      const paired = await action.run(async () => {
        await pairAndSync(api, remote, deskName ?? settings.data?.deskName ?? '');
        return true;
      });
      if (!paired) return;
      await connection.refresh();
      leaveWelcome(navigate);
      return;
    }
    const target = code?.kind === 'key' ? code : { remote: remote.trim(), apiKey: apiKey.trim() };
    const connected = await action.run(async () => {
      await api.call('sync.connection.set', { mode: 'remote', remote: target.remote, apiKey: target.apiKey });
      const result = await api.call('sync.now');
      const status = await api.call('status.get');
      if (
        !result ||
        status.state === 'needs-auth' ||
        status.state === 'offline' ||
        status.state === 'error'
      ) {
        // Not kept: a desk that cannot reach its server should not look connected.
        await api.call('sync.connection.set', { mode: 'none' });
        throw new Error(
          status.state === 'needs-auth'
            ? 'The server refused the key. Check it with your shelter’s coordinator.'
            : status.state === 'offline'
              ? 'The server cannot be reached at this address. Check the address and the network, then try again.'
              : `The server did not answer (${status.error?.message ?? status.message ?? 'no reply'}). Check the address and the network.`,
        );
      }
      return true;
    });
    if (!connected) return;
    await connection.refresh();
    leaveWelcome(navigate);
  }

  return (
    <Card withBorder radius="lg" p="lg" component="section" aria-label="Connect to a server">
      <ChoiceCard icon={IconPlugConnected} title="Connect to a server" badge="Several desks">
        Sync with your shelter’s server: the hosted service, or another desk that shares its shelter on your
        network (type the address and code its sharing card shows, or paste its pairing code).
      </ChoiceCard>
      <form onSubmit={connect} aria-label="Connect to a server">
        <Stack gap="sm">
          <TextInput
            label="Server address or pairing code"
            placeholder="https://… or shelterdesk:…"
            value={remote}
            onChange={(event) => setRemote(event.currentTarget.value)}
            required
            disabled={disabled}
          />
          {!code && (
            <PasswordInput
              label="API key"
              value={apiKey}
              onChange={(event) => setApiKey(event.currentTarget.value)}
              autoComplete="off"
              required
              disabled={disabled}
            />
          )}
          {code?.kind === 'key' && (
            <Text size="xs" c="dimmed">
              Code for {code.remote}: the key is included.
            </Text>
          )}
          {code && code.kind !== 'key' && (
            <PairingPreview
              code={code}
              deskName={deskName ?? settings.data?.deskName ?? ''}
              onDeskName={setDeskName}
              disabled={disabled || action.busy}
            />
          )}
          <BusyButton type="submit" variant="default" loading={action.busy} disabled={disabled} fullWidth>
            {code?.kind === 'pairing'
              ? 'They match: connect'
              : code?.kind === 'typed'
                ? 'Connect'
                : 'Test and connect'}
          </BusyButton>
          {action.error && <DeskErrorAlert reveal error={action.error} title="Not connected" />}
        </Stack>
      </form>
    </Card>
  );
}

/**
 * Opens the desk's home once a choice made here is done, unless the person went to another screen meanwhile (a first
 * sync can take minutes): they stay where they are.
 */
function leaveWelcome(navigate: (to: string) => void): void {
  if (window.location.hash.replace(/^#/, '').startsWith('/welcome')) navigate('/');
}
