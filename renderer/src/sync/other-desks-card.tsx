import { Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { formatMomentTime } from '../lib/dates';
import { usePolledQuery } from '../lib/use-every';
import { SHARING_REFRESH_MS } from '../shelter/lan-sharing-card';
import { othersByLastUse } from './keys-in-use';

/**
 * On a standalone desk, whether other desks can sync to it: LAN sharing, which is off until someone turns it on, is
 * where they connect, so the Sync screen says which it is and leads there. Below, the keys other desks (and scripts
 * or a website) use, the one used last first, with when: a desk that stopped syncing this morning shows here.
 */
export function OtherDesksCard() {
  // Turned on elsewhere (Keys and sharing, another window), or its address found after a start: read again.
  const sharing = usePolledQuery('shelter.lan.get', SHARING_REFRESH_MS).data;
  const keys = usePolledQuery('shelter.keys.list', SHARING_REFRESH_MS).data;
  if (!sharing) return null;
  const on = sharing.enabled && sharing.address !== null;
  const others = othersByLastUse(keys ?? []);
  return (
    <Card withBorder radius="lg" p="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <div style={{ flex: '1 1 20rem' }}>
          <Title order={3} size="h4" mb={4}>
            Other desks
          </Title>
          <Text size="sm" c="dimmed">
            {on
              ? `Desks on this network can sync to this shelter at ${sharing.address}: each joins once with the pairing code shown under Keys and sharing.`
              : sharing.enabled
                ? `Sharing is on but not running.${sharing.problem ? ` ${sharing.problem}` : ''} Other desks cannot connect until it runs; see Keys and sharing.`
                : 'Sharing is off: no other desk can connect to this shelter. Turn it on under Keys and sharing to let the desks on your network join.'}
          </Text>
        </div>
        <Button component="a" href="#/keys" variant="light" leftSection={<IconKey aria-hidden size={18} />}>
          Keys and sharing
        </Button>
      </Group>
      {others.length > 0 && (
        <Table mt="md" verticalSpacing={6} aria-label="Keys other desks use" maw={640}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Desk or key</Table.Th>
              <Table.Th>Last reached this shelter</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {others.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>{key.name}</Table.Td>
                <Table.Td>{key.lastUsedAt ? formatMomentTime(key.lastUsedAt) : 'Not yet'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
