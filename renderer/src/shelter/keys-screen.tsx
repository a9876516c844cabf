import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { type FormEvent, useRef, useState } from 'react';
import type { ApiKeySummary, CreatedApiKey } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { ScreenHeader } from '../components/screen-header';
import { SidewaysScroll } from '../components/sideways-scroll';
import { formatMomentDate, formatMomentTime } from '../lib/dates';
import { usePolledQuery } from '../lib/use-every';
import { focusBack } from '../lib/use-focus-back';
import { useFocusWhen } from '../lib/use-focus-when';
import { LanSharingCard, SHARING_REFRESH_MS } from './lan-sharing-card';
import { StandaloneOnly, useAction } from './use-shelter';

/** API keys of the standalone shelter and LAN sharing: how other desks and tools reach it. */
export function KeysScreen() {
  return (
    <>
      <ScreenHeader
        title="Keys and sharing"
        description="Who may use this shelter’s API: keys for other desks, your website or scripts, and sharing with desks on your network."
      />
      <StandaloneOnly what="API keys">
        {(overview) => (
          <Stack gap="lg">
            <LanSharingCard />
            <KeysCard apiUrl={overview.apiUrl} />
          </Stack>
        )}
      </StandaloneOnly>
    </>
  );
}

function KeysCard({ apiUrl }: { apiUrl: string | null }) {
  const api = useDesk();
  // A desk that pairs, or a key made from the command line, shows without a reload.
  const keys = usePolledQuery('shelter.keys.list', SHARING_REFRESH_MS);
  const [kind, setKind] = useState<'read' | 'write'>('read');
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string>();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [revoking, setRevoking] = useState<ApiKeySummary>();
  const create = useAction();
  const revoke = useAction();
  const copyButton = useFocusWhen(created?.id);
  const revokeOpener = useRef<HTMLElement | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const wanted = name.trim().replace(/\s+/g, ' ');
    const same = keys.data?.find(
      (key) => !key.revokedAt && key.name.trim().toLowerCase() === wanted.toLowerCase(),
    );
    const problem =
      wanted === ''
        ? 'Give the key a name: who or what uses it'
        : same
          ? `A key named “${same.name}” is in use: give this one a name that tells them apart (“${wanted} 2”, “${wanted} – new site”), or revoke the other first`
          : undefined;
    setNameProblem(problem);
    if (problem) return;
    const key = await create.run(() => api.call('shelter.keys.create', { kind, name: wanted }));
    if (key) {
      setCreated(key);
      setName('');
      keys.reload();
    }
  }
  async function confirmRevoke() {
    if (!revoking) return;
    const done = await revoke.run(() => api.call('shelter.keys.revoke', { id: revoking.id }));
    if (done !== undefined) {
      // A key revoked just after it was made is no longer one to copy.
      if (created?.id === revoking.id) setCreated(undefined);
      setRevoking(undefined);
      keys.reload();
    }
  }

  const active = keys.data?.filter((key) => !key.revokedAt) ?? [];
  const revoked = keys.data?.filter((key) => key.revokedAt) ?? [];
  return (
    <Card withBorder radius="lg" p="lg">
      <Title order={3} size="h4" mb={4}>
        API keys
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A read key lets a tool see pets and people, adopters’ and fosters’ contact details included: give one
        only to a tool you trust with them, and never put a key in a public web page. A write key also lets it
        add and change them (another desk). Tools send the key in the <Code>x-api-key</Code> header.{' '}
        {apiUrl && (
          <>
            For scripts on this PC only, this shelter’s API is at <Code>{apiUrl}</Code> (kept across restarts
            unless another program takes its port); other desks and your website use the address on your
            network (sharing, above) or your shelter’s public address.
          </>
        )}
      </Text>
      <form onSubmit={submit} aria-label="New API key">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Name"
            description="Who or what uses it"
            placeholder="Website, Front desk laptop…"
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameProblem(undefined);
            }}
            error={nameProblem}
            // Marked, not `required`: a blank name gets the desk's own message, not the browser's bubble.
            withAsterisk
            aria-required
            w={280}
          />
          <SegmentedControl
            aria-label="Key kind"
            value={kind}
            onChange={(value) => setKind(value as 'read' | 'write')}
            data={[
              { value: 'read', label: 'Read' },
              { value: 'write', label: 'Read and write' },
            ]}
          />
          <BusyButton
            ref={createButton}
            type="submit"
            leftSection={<IconKey aria-hidden size={18} />}
            loading={create.busy}
          >
            Create key
          </BusyButton>
        </Group>
      </form>
      {create.error && <DeskErrorAlert reveal error={create.error} title="No key was created" />}
      {created && (
        <Alert
          color="sage"
          variant="light"
          mt="md"
          title={`New ${created.kind} key “${created.name}”`}
          role="status"
        >
          <Text size="sm" mb="xs">
            Copy it now: only its fingerprint is stored, so it cannot be shown again.
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code aria-label="New key" style={{ wordBreak: 'break-all' }}>
              {created.key}
            </Code>
            <CopyButton value={created.key}>
              {({ copied, copy }) => (
                <Button
                  ref={copyButton}
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
            <Button
              size="xs"
              variant="subtle"
              onClick={() => {
                setCreated(undefined);
                createButton.current?.focus();
              }}
            >
              Done
            </Button>
          </Group>
        </Alert>
      )}
      {keys.error && <DeskErrorAlert error={keys.error} title="The keys did not load" />}
      {!keys.data && !keys.error && <Loader aria-label="Loading keys" mt="md" />}
      {keys.data && (
        <SidewaysScroll label="API keys" minWidth={640} mt="md">
          <Table verticalSpacing="sm" aria-label="API keys" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Starts with</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...active, ...revoked].map((key) => (
                <Table.Tr key={key.id} c={key.revokedAt ? 'dimmed' : undefined}>
                  <Table.Td>{key.name}</Table.Td>
                  <Table.Td>
                    {/* Wraps rather than cut to "Read …" in a narrow window: the kind is what matters here. */}
                    <Badge
                      variant="light"
                      color={key.kind === 'write' ? 'orange' : 'blue'}
                      h="auto"
                      radius="sm"
                      styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                    >
                      {key.kind === 'write' ? 'Read and write' : 'Read'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Code>{key.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{formatMomentDate(key.createdAt)}</Table.Td>
                  {/* With the time: a desk that stopped syncing at 9 this morning is what the IT person looks for. */}
                  <Table.Td>{key.lastUsedAt ? formatMomentTime(key.lastUsedAt) : 'Never'}</Table.Td>
                  <Table.Td ta="right">
                    {key.revokedAt ? (
                      <Text size="sm">Revoked {formatMomentDate(key.revokedAt)}</Text>
                    ) : key.thisDesk ? (
                      <Text size="sm" c="dimmed">
                        Built in
                      </Text>
                    ) : (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={`Revoke ${key.name}`}
                        onClick={(event) => {
                          revokeOpener.current = event.currentTarget;
                          setRevoking(key);
                        }}
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </SidewaysScroll>
      )}
      <Modal
        opened={revoking !== undefined}
        onClose={() => setRevoking(undefined)}
        title="Revoke this key?"
        centered
        // A revoked key's row loses its Revoke button, which Mantine would give the focus back to.
        returnFocus={false}
        onExitTransitionEnd={() => focusBack(revokeOpener.current)}
      >
        <Stack gap="sm">
          <Text size="sm">
            “{revoking?.name}” stops working at once: every desk or tool using it gets “not authorised” until
            it is given a new key.
          </Text>
          {revoke.error && <DeskErrorAlert error={revoke.error} title="The key was not revoked" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(undefined)}>
              Cancel
            </Button>
            <BusyButton color="red" onClick={() => void confirmRevoke()} loading={revoke.busy}>
              Revoke key
            </BusyButton>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
