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
import { useEffect, useState } from 'react';
import type { LanSharing } from '../../../shared/desk-api';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { useAction } from './use-shelter';

/** The switch that lets other desks on the network reach this shelter, with the code they paste. */
export function LanSharingCard() {
  const api = useDesk();
  const query = useDeskQuery('shelter.lan.get');
  const [state, setState] = useState<LanSharing>();
  const action = useAction();
  useEffect(() => setState(query.data), [query.data]);

  async function toggle(enabled: boolean) {
    const next = await action.run(() => api.call('shelter.lan.set', { enabled }));
    if (next) setState(next);
  }
  async function newCode() {
    const next = await action.run(() => api.call('shelter.lan.newCode'));
    if (next) setState(next);
  }

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
            description="Off by default. Turning it off closes the network door at once; this desk keeps working."
            checked={state.enabled}
            onChange={(event) => void toggle(event.currentTarget.checked)}
            disabled={action.busy}
          />
          <Text size="sm" c="dimmed">
            While on, anyone on your network who has a key can read and change this shelter’s pets, people and
            applications through its API, at the address below. Desks without a key get nothing. Keys are
            listed below; revoke the one in the code to shut a desk out.
          </Text>
          {state.problem && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title="Sharing is not running">
              {state.problem}
            </Alert>
          )}
          {state.enabled && state.address && state.code && (
            <Stack gap="xs">
              <Text size="sm">
                Address: <Code>{state.address}</Code>
              </Text>
              <Text size="sm">
                On the other desk, choose “Connect to a server” and paste this connection code:
              </Text>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Code block aria-label="Connection code" style={{ wordBreak: 'break-all', flex: 1 }}>
                  {state.code}
                </Code>
                <CopyButton value={state.code}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant={copied ? 'filled' : 'light'}
                      leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                      onClick={copy}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <List size="sm" c="dimmed">
                <List.Item>The code holds a write key: share it like a door key.</List.Item>
                <List.Item>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconRefresh size={14} />}
                    onClick={() => void newCode()}
                  >
                    Make a new code
                  </Button>
                  revokes the old one: desks using it must be given the new code.
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
