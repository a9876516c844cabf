import {
  Alert,
  Badge,
  Card,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconKey, IconWifiOff } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import {
  type CarryProblem,
  type ConnectionInput,
  type DeskError,
  parseConnectionCode,
} from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { FingerprintGrid } from '../components/fingerprint-grid';
import { useConnection } from '../lib/connection';
import { toDeskError } from '../lib/desk-error';
import { focusIsLost } from '../lib/use-focus-back';
import { PairingPreview, pairAndSync } from '../shelter/pairing-preview';
import { ConnectionSwitchModal, type PendingSwitch, sameRemote } from './connection-switch-modal';

type Mode = ConnectionInput['mode'];

const CARRY_PROBLEM_TITLES: Record<CarryProblem['kind'], string> = {
  clash: 'Changes entered with no connection were not moved',
  unfinished: 'Changes entered with no connection were already moved',
};

const SUBMIT_LABELS: Record<Mode, string> = {
  remote: 'Save and connect',
  standalone: 'Switch to standalone',
  none: 'Disconnect',
};

interface TestOutcome {
  color: string;
  icon: ReactNode;
  title: string;
  text: string;
}

/**
 * Where this desk syncs: a remote server (address + API key, tried before saving), standalone on this desk, or
 * nowhere. Switching to another connection asks first, naming the changes still waiting for the current one.
 */
export function ConnectionCard() {
  const api = useDesk();
  const connection = useConnection();
  const [mode, setMode] = useState<Mode>('remote');
  const [remote, setRemote] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<DeskError>();
  /** The mode the last save set, once it is done (its line is worded from it, not from the summary still on its way). */
  const [saved, setSaved] = useState<Mode>();
  /** The last save turned a standalone desk off: it no longer runs the shelter. */
  const [stoppedShelter, setStoppedShelter] = useState(false);
  /** The address the same shelter had before the save followed it to its new one. */
  const [followed, setFollowed] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome>();
  const [pending, setPending] = useState<PendingSwitch>();
  const [deskName, setDeskName] = useState('');
  const standaloneLine = useRef<HTMLElement | null>(null);
  const parsed = parseConnectionCode(remote);
  // A code that pairs (pasted or typed); a key code goes through the address and key fields as before.
  const pairing = parsed && parsed.kind !== 'key' ? parsed : undefined;

  // The saved settings fill the form when they change, not on every refresh of the same ones: a refresh while
  // someone types an address (or pastes a code) must not put the old one back under their typing.
  const shown = useRef<string>(undefined);
  useEffect(() => {
    if (!connection.data) return;
    const saved = `${connection.data.mode} ${connection.data.remote ?? ''}`;
    if (saved === shown.current) return;
    shown.current = saved;
    setMode(connection.data.mode === 'none' ? 'remote' : connection.data.mode);
    if (connection.data.mode === 'remote') setRemote(connection.data.remote ?? '');
  }, [connection.data]);

  function requested(): ConnectionInput {
    return mode === 'remote'
      ? { mode, remote, ...(apiKey.trim() !== '' && { apiKey: apiKey.trim() }) }
      : { mode };
  }

  /** Another connection than the current one: the desk switches its records, so it asks first. */
  function switches(input: ConnectionInput): boolean {
    const current = connection.data;
    if (!current || current.mode !== input.mode) return current !== undefined && current.mode !== 'none';
    return input.mode === 'remote' && !sameRemote(input.remote, current.remote);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setSaved(undefined);
    setOutcome(undefined);
    // A pairing code switches the desk like an address does: the same question first, then the pairing.
    const code = mode === 'remote' && pairing ? remote : undefined;
    const input: ConnectionInput = code && pairing ? { mode: 'remote', remote: pairing.remote } : requested();
    // A desk with no connection takes what was entered meanwhile to its first connection: it says so first.
    const firstConnection = connection.data?.mode === 'none' && input.mode !== 'none';
    if (!switches(input) && !firstConnection) {
      await confirm({ input, waiting: 0, ...(code && { pairingCode: code }) });
      return;
    }
    let waiting: number;
    try {
      // The same paired shelter at a new address (its office PC or port changed) is no switch: the desk follows it.
      if (input.mode === 'remote' && connection.data?.mode === 'remote') {
        const pin = pairing?.kind === 'pairing' ? pairing.fingerprint : undefined;
        const plan = await api.call('sync.connection.plan', { remote: input.remote, ...(pin && { pin }) });
        if (plan.sameConnection) {
          await confirm({ input, waiting: 0, ...(code && { pairingCode: code }) }, plan.movedFrom);
          return;
        }
      }
      const { counts } = await api.call('outbox.list', { state: 'pending' });
      waiting = counts.pending + counts.needsAttention;
    } catch (caught) {
      setError(toDeskError(caught));
      return;
    }
    const next = { input, waiting, ...(code && { pairingCode: code }) };
    if (firstConnection && waiting === 0) await confirm(next);
    else setPending(next);
  }

  /** Does what was asked (and confirmed, when it switches): pairs with a code, or sets the connection. */
  async function confirm(next: PendingSwitch, movedFrom: string | null = null) {
    const { pairingCode } = next;
    setSaving(true);
    setFollowed(null);
    try {
      if (pairingCode === undefined) {
        await api.call('sync.connection.set', next.input);
        setApiKey('');
      } else {
        await pairAndSync(api, pairingCode, deskName);
      }
      setSaved(next.input.mode);
      setStoppedShelter(next.input.mode === 'none' && summary?.mode === 'standalone');
      setFollowed(movedFrom);
      setPending(undefined);
      void connection.refresh();
    } catch (caught) {
      setPending(undefined);
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  /** One request with what is typed, before anything is saved. */
  async function test() {
    setTesting(true);
    setOutcome(undefined);
    setError(undefined);
    try {
      const result = await api.call('sync.connection.test', {
        remote,
        ...(apiKey.trim() !== '' && { apiKey: apiKey.trim() }),
      });
      const pets = `${result.pets.toLocaleString()} ${result.pets === 1 ? 'pet' : 'pets'}`;
      setOutcome(
        result.writes === false
          ? {
              color: 'yellow',
              icon: <IconKey aria-hidden />,
              title: `Connected, read only: ${pets}`,
              text: `${result.server} accepted the key, but it is a read key: the shelter’s pets and people come to this desk, and what is entered here (intakes, status changes, sign-ups) would wait and then be refused. To enter anything, ask your coordinator for a write key. Nothing is saved until you press “Save and connect”.`,
            }
          : {
              color: 'teal',
              icon: <IconCircleCheck aria-hidden />,
              title: `Connected: ${pets}`,
              text: `${result.server} answered and accepted the key. Nothing is saved until you press “Save and connect”.`,
            },
      );
    } catch (caught) {
      const failed = toDeskError(caught);
      setOutcome({
        color: failed.code === 'needs_auth' ? 'yellow' : 'orange',
        icon: failed.code === 'needs_auth' ? <IconKey aria-hidden /> : <IconWifiOff aria-hidden />,
        title:
          failed.code === 'needs_auth'
            ? 'The server refused the API key'
            : failed.code === 'invalid_input'
              ? 'Check what is entered'
              : failed.code === 'https_not_offered'
                ? 'This server does not use https'
                : 'The server did not answer as expected',
        text: `${failed.message}${failed.requestId ? ` (request ${failed.requestId})` : ''}`,
      });
    } finally {
      setTesting(false);
    }
  }

  const summary = connection.data;
  // Saved as standalone, the button that had the focus gives way to a line: the focus goes to the line, not the page.
  // Saved from the switch dialog, the dialog's closing hands the focus back to that gone button, so the line takes it
  // once the dialog has closed (`focusStandaloneLine` on its exit).
  const focusStandaloneLine = () => {
    const line = standaloneLine.current;
    if (line && saved && focusIsLost()) line.focus({ preventScroll: true });
  };
  const keepFocusAfterSave = (line: HTMLElement | null) => {
    standaloneLine.current = line;
    focusStandaloneLine();
  };
  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h4">
          Connection
        </Title>
        {summary && (
          <Badge variant="light" color={summary.mode === 'none' ? 'gray' : 'sage'}>
            {summary.mode === 'none'
              ? 'Not connected'
              : summary.mode === 'standalone'
                ? 'Standalone'
                : summary.hasKey
                  ? 'Connected to a server'
                  : 'Server set, no key yet'}
          </Badge>
        )}
      </Group>
      <form onSubmit={save} aria-label="Connection">
        <Stack gap="md">
          <SegmentedControl
            aria-label="Connection mode"
            value={mode}
            onChange={(value) => setMode(value as Mode)}
            data={[
              { value: 'remote', label: 'Connect to a server' },
              { value: 'standalone', label: 'Standalone' },
              { value: 'none', label: 'No connection' },
            ]}
            fullWidth
          />
          {mode === 'remote' && (
            <>
              <TextInput
                label="Server address or pairing code"
                description="For example https://api.your-shelter.org, or what a shelter desk on your network shows to type (192.168.1.20:8787 K7QM-4TXP) or paste (shelterdesk:…)"
                placeholder="https://… or shelterdesk:…"
                value={remote}
                onChange={(event) => setRemote(event.currentTarget.value)}
                required
              />
              {pairing && (
                <PairingPreview
                  code={pairing}
                  deskName={deskName}
                  onDeskName={setDeskName}
                  disabled={saving}
                />
              )}
              {!pairing && summary?.fingerprint && sameRemote(remote, summary.remote) && (
                <Stack gap={4}>
                  <FingerprintGrid
                    fingerprint={summary.fingerprint}
                    label="The shelter’s certificate fingerprint (checked on every sync)"
                  />
                  <Text size="xs" c="dimmed">
                    Read it aloud with someone at the shelter desk to check that both screens show the same.
                  </Text>
                </Stack>
              )}
              {!pairing && (
                <PasswordInput
                  label="API key"
                  description={
                    summary?.hasKey && summary.mode === 'remote'
                      ? `A key is stored (${summary.keyProtection === 'encrypted' ? 'encrypted' : 'in a file only you can read'}). Leave empty to keep it.`
                      : 'From your shelter’s coordinator.'
                  }
                  value={apiKey}
                  onChange={(event) => setApiKey(event.currentTarget.value)}
                  autoComplete="off"
                />
              )}
            </>
          )}
          {mode === 'standalone' && (
            <Text size="sm" c="dimmed">
              This desk keeps the shelter’s records itself and other desks on your network can sync to it. A
              key is made for it automatically.
            </Text>
          )}
          {mode === 'none' &&
            (summary?.mode === 'standalone' ? (
              <Text size="sm" c="dimmed">
                This desk stops running the shelter: other desks and scripts can no longer reach its records.
                The shelter’s records stay in this desk’s data folder, whole, and come back when you choose
                Standalone again. What is entered while it is off goes with the desk to the next connection
                you set.
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                The desk stops syncing and forgets the key. The pets, people and waiting changes of the
                current connection stay on this desk and come back when you connect to it again. What is
                entered while it is off goes with the desk to the next connection you set.
              </Text>
            ))}
          <Group gap="sm">
            {mode === 'standalone' && summary?.mode === 'standalone' ? (
              // Nothing to save: saving the mode in use again would only restart the shelter's server.
              <Text size="sm" fw={500} tabIndex={-1} ref={keepFocusAfterSave}>
                This desk runs standalone now.
              </Text>
            ) : (
              <BusyButton type="submit" loading={saving} color={mode === 'none' ? 'red' : undefined}>
                {mode === 'none' && summary?.mode === 'standalone'
                  ? 'Stop running the shelter'
                  : SUBMIT_LABELS[mode]}
              </BusyButton>
            )}
            {mode === 'remote' && !pairing && (
              <BusyButton
                variant="default"
                onClick={() => void test()}
                loading={testing}
                disabled={remote.trim() === ''}
              >
                Test connection
              </BusyButton>
            )}
          </Group>
          {saved && !error && (
            <Text size="sm" c="dimmed" role="status">
              {followed &&
                `Same shelter, new address: its certificate is the one this desk pinned, so the desk now syncs with ${summary?.remote ?? 'the new address'} instead of ${followed}, and the changes waiting here go to it. `}
              {saved === 'standalone'
                ? 'Saved. This desk keeps the shelter’s records itself now.'
                : saved === 'none'
                  ? stoppedShelter
                    ? 'Stopped: this desk no longer runs the shelter; its records stay in the data folder.'
                    : 'Disconnected: this desk no longer syncs.'
                  : 'Saved. A sync starts now; its progress shows under Sync.'}
              {summary?.carryProblem?.kind === 'clash' &&
                ' The changes entered with no connection were not moved: see below.'}
            </Text>
          )}
          {outcome && (
            <Alert
              color={outcome.color}
              variant="light"
              icon={outcome.icon}
              title={outcome.title}
              role="status"
            >
              {outcome.text}
            </Alert>
          )}
          {error && <DeskErrorAlert reveal error={error} title="Connection not changed" />}
          {summary?.carryProblem && (
            <Alert
              color="orange"
              variant="light"
              title={CARRY_PROBLEM_TITLES[summary.carryProblem.kind]}
              role="alert"
              data-testid={`carry-${summary.carryProblem.kind}`}
            >
              {summary.carryProblem.message}
              <Text size="xs" mt={6} opacity={0.75}>
                {summary.carryProblem.detail}
              </Text>
            </Alert>
          )}
        </Stack>
      </form>
      <ConnectionSwitchModal
        pending={pending}
        current={summary}
        busy={saving}
        onConfirm={() => pending && void confirm(pending)}
        onCancel={() => setPending(undefined)}
        onClosed={focusStandaloneLine}
      />
    </Card>
  );
}
