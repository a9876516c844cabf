import {
  Alert,
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconCircleCheck,
  IconClockHour4,
  IconHeartHandshake,
  IconHome,
  IconSearch,
  IconUserPlus,
} from '@tabler/icons-react';
import { useState } from 'react';
import type { PersonType } from '../../../shared/contract';
import type { MirrorPerson } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { PersonForm } from '../components/person-form';
import { RecordBadges } from '../components/record-badges';
import { ScreenHeader } from '../components/screen-header';
import { useFollowedId, useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import type { PersonFormType } from '../lib/person-form';
import { formatDate, formatValue, humanize } from '../lib/words';
import { ContractButton } from '../print/contract-button';
import { PersonStatusSection } from '../shelter/person-status-section';

const PAGE_SIZE = 50;

const STATUS_COLORS: Record<string, string> = {
  active: 'teal',
  pending: 'indigo',
  training: 'blue',
  inactive: 'gray',
  denied: 'red',
  suspended: 'orange',
  blocked: 'red',
};

export function PeopleScreen() {
  const [tab, setTab] = useState<PersonType>('adopter');
  const [openId, setOpenId] = useState<string | null>(null);
  const [creating, setCreating] = useState<PersonFormType | null>(null);
  const [saved, setSaved] = useState<{ id: string; name: string }[]>([]);
  const counts = useDeskQuery('mirror.counts');
  useReloadOnChange(['adopters', 'fosters', 'people'], counts.reload);

  return (
    <>
      <ScreenHeader
        title="People"
        description="Adopters and fosters with their contact details and status, searchable on this desk at any time."
        actions={
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setCreating(tab)}>
            New {tab}
          </Button>
        }
      />
      <Stack gap="md">
        {saved.map((person) => (
          <SavedPerson key={person.id} id={person.id} name={person.name} onOpen={setOpenId} />
        ))}
        <Tabs
          value={tab}
          onChange={(value) => value && setTab(value as PersonType)}
          variant="pills"
          radius="md"
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="adopter" leftSection={<IconHeartHandshake size={16} />}>
              Adopters {counts.data ? `(${counts.data.adopters.toLocaleString()})` : ''}
            </Tabs.Tab>
            <Tabs.Tab value="foster" leftSection={<IconHome size={16} />}>
              Fosters {counts.data ? `(${counts.data.fosters.toLocaleString()})` : ''}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="adopter">
            {counts.data?.adopters === 0 ? (
              <EmptyState
                icon={IconHeartHandshake}
                title="No adopters here yet"
                action={{ label: 'Connect to your shelter', href: '/settings' }}
              >
                Adopters and their applications come from your shelter’s server. Once this desk is connected,
                you can find anyone by name, email or phone, even offline. You can also sign up a new adopter
                now.
              </EmptyState>
            ) : (
              tab === 'adopter' && <PeopleList type="adopter" onOpen={setOpenId} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="foster">
            {counts.data?.fosters === 0 ? (
              <EmptyState
                icon={IconHome}
                title="No fosters here yet"
                action={{ label: 'Connect to your shelter', href: '/settings' }}
              >
                Foster homes and how many animals each can take appear after the first sync.
              </EmptyState>
            ) : (
              tab === 'foster' && <PeopleList type="foster" onOpen={setOpenId} />
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>

      <Drawer
        opened={openId !== null}
        onClose={() => setOpenId(null)}
        position="right"
        size="lg"
        title={<Text fw={600}>Person details</Text>}
      >
        {openId !== null && <PersonDetail id={openId} />}
      </Drawer>
      <Drawer
        opened={creating !== null}
        onClose={() => setCreating(null)}
        position="right"
        size="xl"
        title={<Text fw={600}>Sign someone up</Text>}
      >
        {creating !== null && (
          <PersonForm
            initialType={creating}
            onCancel={() => setCreating(null)}
            onSaved={(person) => {
              setCreating(null);
              setSaved((previous) => [person, ...previous]);
            }}
          />
        )}
      </Drawer>
    </>
  );
}

function PeopleList({ type, onOpen }: { type: PersonType; onOpen(id: string): void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const [page, setPage] = useState(1);
  const list = useDeskQuery('mirror.people.list', {
    type,
    ...(debounced && { search: debounced }),
    sort: 'name',
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const needsAttention = useNeedsAttention();
  useReloadOnChange(['adopters', 'fosters', 'people'], list.reload);
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <Stack gap="md">
      <TextInput
        label="Search"
        placeholder="Name, email or phone"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={480}
      />
      {list.error && <DeskErrorAlert error={list.error} title="The list did not load" />}
      {!data && list.loading && <Loader aria-label="Loading people" />}
      {data && (
        <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
          <Text size="sm" c="dimmed" px="md" py="xs">
            {data.total === 1 ? '1 person' : `${data.total.toLocaleString()} people`}
          </Text>
          <Table
            highlightOnHover
            verticalSpacing="xs"
            aria-label={type === 'adopter' ? 'Adopters' : 'Fosters'}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th visibleFrom="sm">Phone</Table.Th>
                <Table.Th>Status</Table.Th>
                {type === 'foster' && <Table.Th visibleFrom="md">Capacity</Table.Th>}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map(({ record, pending, pendingFields, presence }) => (
                <Table.Tr
                  key={record.id}
                  onClick={() => onOpen(record.id)}
                  style={{ cursor: 'pointer' }}
                  aria-label={record.name}
                >
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {record.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{record.email ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{record.phone ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[record.status] ?? 'gray'} variant="light">
                      {humanize(record.status)}
                    </Badge>
                  </Table.Td>
                  {type === 'foster' && (
                    <Table.Td visibleFrom="md">
                      <Text size="sm">{record.capacity ?? '—'}</Text>
                    </Table.Td>
                  )}
                  <Table.Td>
                    <RecordBadges
                      pending={pending}
                      pendingFields={pendingFields}
                      needsAttention={needsAttention.has(record.id)}
                      presence={presence}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data.items.length === 0 && (
            <Text ta="center" c="dimmed" py="xl">
              Nobody matches. Try part of the name, the email or the last digits of the phone.
            </Text>
          )}
          {pages > 1 && (
            <Group justify="center" py="sm">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Paper>
      )}
    </Stack>
  );
}

function PersonDetail({ id }: { id: string }) {
  const person = useDeskQuery('mirror.people.get', { id });
  useReloadOnChange(['adopters', 'fosters', 'people'], person.reload);
  const type = person.data?.record.type === 'foster' ? 'foster' : 'adopter';
  const fields = useDeskQuery('mirror.customFields', { entity: type });
  const needsAttention = useNeedsAttention();
  if (person.error) return <DeskErrorAlert error={person.error} title="This person could not be opened" />;
  if (!person.data) return <Loader aria-label="Loading person" />;
  return (
    <PersonView
      person={person.data}
      labels={fields.data?.fields ?? []}
      needsAttention={needsAttention.has(person.data.record.id)}
    />
  );
}

function PersonView({
  person,
  labels,
  needsAttention,
}: {
  person: MirrorPerson;
  labels: readonly { field_key: string; label: string }[];
  needsAttention: boolean;
}) {
  const { record } = person;
  const rows: [string, string][] = [
    ['Type', humanize(record.type)],
    ['Email', formatValue(record.email)],
    ['Phone', formatValue(record.phone)],
    ['Address', formatValue(record.address)],
    ['Status', humanize(record.status)],
    ['Status notes', formatValue(record.status_change_notes)],
    ...(record.type === 'foster' ? ([['Capacity', formatValue(record.capacity)]] as [string, string][]) : []),
    ['Tags', formatValue(record.tags)],
    ['Signed up', formatDate(record.created_at)],
    ['Last changed', formatDate(record.updated_at)],
  ];
  const labelOf = new Map(labels.map((field) => [field.field_key, field.label]));
  const custom = Object.entries(record.custom_field_data);
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Title order={2}>{record.name}</Title>
        <RecordBadges
          pending={person.pending}
          pendingFields={person.pendingFields}
          needsAttention={needsAttention}
          presence={person.presence}
        />
      </Group>
      <ContractButton personId={record.id} name={record.name} type={record.type} />
      {person.presence === 'local' && (
        <Alert color="yellow" variant="light" icon={<IconClockHour4 />}>
          Signed up on this desk. Sent to the shelter’s server when the connection allows.
        </Alert>
      )}
      <Table variant="vertical" withTableBorder layout="fixed" aria-label="Person fields">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
          {custom.map(([key, value]) => (
            <Table.Tr key={key}>
              <Table.Th w={160}>{labelOf.get(key) ?? humanize(key)}</Table.Th>
              <Table.Td>{formatValue(value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <PersonStatusSection person={person} />
    </Stack>
  );
}

/** Someone signed up from this screen: pending until the server accepts them. */
function SavedPerson({ id, name, onOpen }: { id: string; name: string; onOpen(id: string): void }) {
  const currentId = useFollowedId('person', id);
  const person = useDeskQuery('mirror.people.get', { id: currentId });
  useReloadOnChange(['adopters', 'fosters', 'people'], person.reload);
  const gone = person.error?.code === 'not_found';
  const synced = person.data ? !person.data.pending && person.data.presence !== 'local' : false;
  return (
    <Card withBorder radius="lg" p="md" aria-label={`Signed up ${name}`}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color={synced ? 'teal' : 'yellow'} variant="light" size="lg" radius="xl">
            {synced ? <IconCircleCheck size={20} /> : <IconClockHour4 size={20} />}
          </ThemeIcon>
          <Stack gap={0}>
            <Title order={4}>{name} is signed up</Title>
            <Text size="sm" c="dimmed">
              {synced
                ? 'The shelter’s server has accepted the sign-up.'
                : gone
                  ? 'No longer waiting on this desk: it was sent, or discarded under Sync.'
                  : 'Saved on this desk; sent to the shelter’s server when the connection allows.'}
            </Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Badge color={synced ? 'teal' : gone ? 'gray' : 'yellow'} variant="light">
            {synced ? 'Synced' : gone ? 'Not here' : 'Not sent yet'}
          </Badge>
          {!gone && (
            <Button size="xs" variant="light" onClick={() => onOpen(currentId)}>
              Open
            </Button>
          )}
        </Group>
      </Group>
    </Card>
  );
}
