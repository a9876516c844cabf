import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  Loader,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { LanSharing } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { FingerprintGrid } from '../components/fingerprint-grid';
import { useEvery } from '../lib/use-every';
import { useAction } from './use-shelter';

/**
 * How often the Keys and sharing screen asks again: while sharing, so a code a desk has used or that expired is
 * replaced; and the keys, so a desk that just paired shows under its name.
 */
export const SHARING_REFRESH_MS = 5_000;

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The switch that lets other desks on the network reach this shelter, with the pairing code they paste. */
export function LanSharingCard() {
  const api = useDesk();
  const query = useDeskQuery('shelter.lan.get');
  const [state, setState] = useState<LanSharing>();
  const action = useAction();
  useEffect(() => setState(query.data), [query.data]);
  const sharing = state?.enabled === true && state.address !== null;
  // A poll sent before a change the person made is not shown over its answer.
  const changes = useRef(0);
  useEvery(
    SHARING_REFRESH_MS,
    () => {
      const round = changes.current;
      api.call('shelter.lan.get').then(
        (polled) => round === changes.current && setState(polled),
        () => undefined,
      );
    },
    sharing,
  );

  async function change(call: () => Promise<LanSharing>) {
    changes.current += 1;
    const next = await action.run(call);
    changes.current += 1;
    if (next) setState(next);
  }
  const toggle = (enabled: boolean) => change(() => api.call('shelter.lan.set', { enabled }));
  const newCode = () => change(() => api.call('shelter.lan.newCode'));

  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          Share with desks on this network
        </Title>
        {state && (
          <Badge variant="light" color={state.enabled && state.address ? 'orange' : 'gray'}>
            {state.enabled && state.address ? 'Sharing' : 'Off'}
          </Badge>
        )}
      </Group>
      {query.error && <DeskErrorAlert error={query.error} title="Sharing settings did not load" />}
      {!state && !query.error && <Loader aria-label="Loading sharing" />}
      {state && (
        <Stack gap="sm">
          <Switch
            label="Let other desks on this network connect"
            description={
              state.enabled
                ? 'Turning it off closes the network door at once; this desk keeps working.'
                : 'Off by default. Turn it on when another desk needs this shelter; it is safe on any network, public Wi-Fi too.'
            }
            checked={state.enabled}
            // Busy, it keeps the focus (a disabled switch drops it, and the next Space goes nowhere) and takes no
            // second change until the first is answered.
            onChange={(event) => !action.busy && void toggle(event.currentTarget.checked)}
            aria-busy={action.busy}
          />
          <Text size="sm" c="dimmed">
            While on, this shelter answers on the network this PC is on now, over an encrypted connection
            (HTTPS) with its own certificate. A desk joins with a one-time code and gets a key of its own,
            listed below under its name: revoke that key to shut out that desk alone. Anyone else on the
            network, on public or guest Wi-Fi too, gets nothing without a code or a key.
          </Text>
          {state.problem && (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertTriangle aria-hidden />}
              title="Sharing is not running"
            >
              {state.problem}
            </Alert>
          )}
          {state.enabled && state.address && state.code && (
            <Stack gap="xs">
              <Text size="sm">
                Address on your network: <Code>{state.address}</Code>
              </Text>
              <Text size="sm">
                On the other desk, choose “Connect to a server” on its first screen or in its Settings, and
                type this in the address box. It works once, until{' '}
                {state.expiresAt ? timeOf(state.expiresAt) : 'it is used'}; a new one appears here after.
              </Text>
              {state.typed && (
                <Code
                  block
                  aria-label="Code to type"
                  fz="xl"
                  fw={600}
                  style={{ letterSpacing: '0.08em', overflowWrap: 'anywhere' }}
                >
                  {state.typed}
                </Code>
              )}
              <Text size="sm">
                Or, to send it by email or a USB stick, copy the whole pairing code; the other desk then shows
                the fingerprint below to compare aloud.
              </Text>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Code block aria-label="Pairing code" style={{ wordBreak: 'break-all', flex: 1 }}>
                  {state.code}
                </Code>
                <CopyButton value={state.code}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant={copied ? 'filled' : 'light'}
                      leftSection={
                        copied ? <IconCheck aria-hidden size={16} /> : <IconCopy aria-hidden size={16} />
                      }
                      onClick={copy}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              {state.fingerprint && (
                <FingerprintGrid
                  fingerprint={state.fingerprint}
                  label="This shelter’s certificate fingerprint"
                />
              )}
              <List size="sm" c="dimmed">
                <List.Item>
                  With the pasted code, read the fingerprint aloud before the other desk connects while
                  someone there checks it on their screen, row by row. If any group differs, stop: someone may
                  be listening in. The typed code needs no such check: each desk proves to the other that it
                  knows it.
                </List.Item>
                <List.Item>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconRefresh aria-hidden size={14} />}
                    onClick={() => void newCode()}
                  >
                    Make a new code
                  </Button>
                  ends this one (if no desk used it yet). Desks already connected keep their own keys.
                </List.Item>
              </List>
            </Stack>
          )}
          {action.error && <DeskErrorAlert error={action.error} title="Sharing not changed" />}
        </Stack>
      )}
    </Card>
  );
}
