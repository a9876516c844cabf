import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconKey, IconPlugConnectedX, IconWifiOff } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { ConnectionInput, DeskError } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { toDeskError } from '../lib/desk-error';
import { DeskErrorAlert } from './desk-error-alert';

type Mode = ConnectionInput['mode'];

interface TestOutcome {
  color: string;
  icon: ReactNode;
  title: string;
  text: string;
}

/** Where this desk syncs: a remote server (address + API key), standalone on this desk, or nowhere. */
export function ConnectionCard() {
  const api = useDesk();
  const connection = useDeskQuery('sync.connection.get');
  const [mode, setMode] = useState<Mode>('remote');
  const [remote, setRemote] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<DeskError>();
  const [saved, setSaved] = useState(false);
  const [outcome, setOutcome] = useState<TestOutcome>();

  useEffect(() => {
    if (!connection.data) return;
    setMode(connection.data.mode === 'none' ? 'remote' : connection.data.mode);
    if (connection.data.mode === 'remote') setRemote(connection.data.remote ?? '');
  }, [connection.data]);

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    setSaved(false);
    setOutcome(undefined);
    try {
      const input: ConnectionInput =
        mode === 'remote'
          ? { mode, remote, ...(apiKey.trim() !== '' && { apiKey: apiKey.trim() }) }
          : { mode };
      await api.call('sync.connection.set', input);
      setApiKey('');
      setSaved(true);
      connection.reload();
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setSaving(false);
    }
  }

  /** A real sync pass: the plainest proof that the server answers and accepts the key. */
  async function test() {
    setTesting(true);
    setOutcome(undefined);
    setError(undefined);
    try {
      const result = await api.call('sync.now');
      const status = await api.call('status.get');
      if (status.state === 'needs-auth') {
        setOutcome({
          color: 'yellow',
          icon: <IconKey />,
          title: 'The server refused the API key',
          text:
            status.error?.message ?? 'Enter the key again (ask your shelter’s coordinator for a new one).',
        });
      } else if (status.state === 'not-connected') {
        setOutcome({
          color: 'gray',
          icon: <IconPlugConnectedX />,
          title: 'No server set',
          text: 'Enter the server address and key, then save.',
        });
      } else if (!result || status.state === 'offline' || status.state === 'error') {
        setOutcome({
          color: 'orange',
          icon: <IconWifiOff />,
          title: 'The server did not answer',
          text:
            status.error?.message ??
            status.message ??
            'Check the address and the network. Your work is kept on this desk meanwhile.',
        });
      } else {
        setOutcome({
          color: 'teal',
          icon: <IconCircleCheck />,
          title: 'Connected',
          text: `The server answered ${result.requests} request${result.requests === 1 ? '' : 's'}${
            result.written > 0 ? ` and ${result.written} records were brought in` : ''
          }.${result.problems.length > 0 ? ` ${result.problems.join(' ')}` : ''}`,
        });
      }
    } catch (caught) {
      setError(toDeskError(caught));
    } finally {
      setTesting(false);
    }
  }

  const summary = connection.data;
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
                : `Remote${summary.hasKey ? ', key stored' : ', no key'}`}
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
              { value: 'remote', label: 'Shelter server' },
              { value: 'standalone', label: 'Standalone' },
              { value: 'none', label: 'Off' },
            ]}
            fullWidth
          />
          {mode === 'remote' && (
            <>
              <TextInput
                label="Server address"
                description="For example https://api.your-shelter.org or http://192.168.1.20:8787"
                placeholder="https://…"
                value={remote}
                onChange={(event) => setRemote(event.currentTarget.value)}
                required
              />
              <PasswordInput
                label="API key"
                description={
                  summary?.hasKey
                    ? `A key is stored (${summary.keyProtection === 'encrypted' ? 'encrypted' : 'in a file only you can read'}). Leave empty to keep it.`
                    : 'From your shelter’s coordinator.'
                }
                value={apiKey}
                onChange={(event) => setApiKey(event.currentTarget.value)}
                autoComplete="off"
              />
            </>
          )}
          {mode === 'standalone' && (
            <Text size="sm" c="dimmed">
              This desk keeps the shelter’s records itself and other desks on your network can sync to it. A
              key is made for it automatically.
            </Text>
          )}
          {mode === 'none' && (
            <Text size="sm" c="dimmed">
              The desk stops syncing and forgets the key. Pets and people already here stay.
            </Text>
          )}
          <Group gap="sm">
            <Button type="submit" loading={saving}>
              {mode === 'none' ? 'Disconnect' : 'Save and connect'}
            </Button>
            <Button
              variant="default"
              onClick={() => void test()}
              loading={testing}
              disabled={summary?.mode === 'none'}
            >
              Test connection
            </Button>
          </Group>
          {saved && !error && (
            <Text size="sm" c="dimmed" role="status">
              Saved. A sync starts now; its progress shows under Sync.
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
          {error && <DeskErrorAlert error={error} title="Connection not changed" />}
        </Stack>
      </form>
    </Card>
  );
}
