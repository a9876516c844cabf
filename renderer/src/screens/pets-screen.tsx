import {
  Badge,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPaw, IconPlus, IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useState } from 'react';
import type { MirrorPetQuery, Presence } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { PetDrawer } from '../components/pet-drawer';
import { PetPhoto } from '../components/pet-photo';
import { RecordBadges } from '../components/record-badges';
import { ScreenHeader } from '../components/screen-header';
import { useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import { formatDate, humanize, SPECIES_OPTIONS, statusColor } from '../lib/words';
import { EventCardsButton } from '../print/event-cards-button';

const PAGE_SIZE = 50;

const VISIBILITY: Record<string, { label: string; presence?: Presence[] }> = {
  all: { label: 'All' },
  public: { label: 'Public', presence: ['listed'] },
  hidden: { label: 'Not public', presence: ['unlisted'] },
  local: { label: 'New here', presence: ['local'] },
};

const SORTS = [
  { value: 'name', label: 'Name' },
  { value: 'updated', label: 'Last changed' },
  { value: 'intake', label: 'Intake date' },
  { value: 'status', label: 'Status' },
  { value: 'species', label: 'Species' },
] as const;

type Sort = (typeof SORTS)[number]['value'];

export function PetsScreen() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const [species, setSpecies] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [visibility, setVisibility] = useState('all');
  const [pendingOnly, setPendingOnly] = useState(false);
  const [sort, setSort] = useState<Sort>('name');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);

  const query: MirrorPetQuery = {
    ...(debounced && { search: debounced }),
    ...(species && { species: species as MirrorPetQuery['species'] }),
    ...(status && { status }),
    ...(VISIBILITY[visibility]?.presence && { presence: VISIBILITY[visibility].presence }),
    ...(pendingOnly && { pendingOnly }),
    sort,
    direction,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
  const list = useDeskQuery('mirror.pets.list', query);
  const counts = useDeskQuery('mirror.counts');
  const statuses = useDeskQuery('mirror.pets.statuses');
  const needsAttention = useNeedsAttention();
  useReloadOnChange(['pets'], () => {
    list.reload();
    counts.reload();
    statuses.reload();
  });

  const resetPage =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      setPage(1);
    };

  const total = counts.data
    ? counts.data.pets.listed + counts.data.pets.unlisted + counts.data.pets.local + counts.data.pets.removed
    : undefined;
  const header = (
    <ScreenHeader
      title="Pets"
      description="Every animal your shelter has in care, kept on this desk so you can look them up even when the internet is down."
      actions={
        <Button component="a" href="#/intake" leftSection={<IconPlus size={18} />}>
          New intake
        </Button>
      }
    />
  );

  if (total === 0) {
    return (
      <>
        {header}
        <EmptyState
          icon={IconPaw}
          title="No pets on this desk yet"
          action={{ label: 'Connect to your shelter', href: '/settings' }}
        >
          Pets appear here after this desk has synced with your shelter’s server once. Connect it under
          Settings; after that, the list stays available offline and updates by itself.
        </EmptyState>
      </>
    );
  }

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <>
      {header}
      <Stack gap="md">
        <Paper withBorder radius="lg" p="md">
          <Stack gap="sm">
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                label="Search"
                placeholder="Name, breed, description or microchip"
                leftSection={<IconSearch size={16} />}
                value={search}
                onChange={(event) => {
                  setSearch(event.currentTarget.value);
                  setPage(1);
                }}
                style={{ flex: 1, minWidth: 240 }}
              />
              <Select
                label="Species"
                placeholder="All species"
                data={SPECIES_OPTIONS}
                value={species}
                onChange={resetPage(setSpecies)}
                clearable
                w={150}
              />
              <Select
                label="Status"
                placeholder="All statuses"
                data={(statuses.data ?? []).map((value) => ({ value, label: humanize(value) }))}
                value={status}
                onChange={resetPage(setStatus)}
                clearable
                searchable
                w={190}
              />
              <Select
                label="Sort by"
                data={SORTS.map((each) => ({ value: each.value, label: each.label }))}
                value={sort}
                onChange={(value) => value && resetPage(setSort)(value as Sort)}
                allowDeselect={false}
                w={150}
                rightSection={
                  <UnstyledButton
                    aria-label={direction === 'asc' ? 'Sorted ascending' : 'Sorted descending'}
                    onClick={() => setDirection(direction === 'asc' ? 'desc' : 'asc')}
                    style={{ display: 'flex', pointerEvents: 'all' }}
                  >
                    {direction === 'asc' ? <IconSortAscending size={16} /> : <IconSortDescending size={16} />}
                  </UnstyledButton>
                }
                rightSectionPointerEvents="all"
              />
            </Group>
            <Group gap="lg" justify="space-between">
              <SegmentedControl
                aria-label="Visibility"
                size="xs"
                value={visibility}
                onChange={resetPage(setVisibility)}
                data={Object.entries(VISIBILITY).map(([value, each]) => ({ value, label: each.label }))}
              />
              <Switch
                label="Only pets with unsent changes"
                checked={pendingOnly}
                onChange={(event) => resetPage(setPendingOnly)(event.currentTarget.checked)}
              />
            </Group>
          </Stack>
        </Paper>

        {list.error && <DeskErrorAlert error={list.error} title="The pet list did not load" />}
        {!data && list.loading && <Loader aria-label="Loading pets" />}
        {data && (
          <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
            <Group justify="space-between" px="md" py="xs">
              <Text size="sm" c="dimmed" role="status" aria-label="Pet count">
                {data.total === 1 ? '1 pet' : `${data.total.toLocaleString()} pets`}
                {total !== undefined && data.total !== total && ` of ${total.toLocaleString()}`}
              </Text>
              <Group gap="xs">
                {list.loading && <Loader size="xs" />}
                <EventCardsButton query={query} count={data.total} />
              </Group>
            </Group>
            <Table highlightOnHover verticalSpacing="xs" aria-label="Pets">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={56} />
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Species</Table.Th>
                  <Table.Th visibleFrom="md">Breed</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th visibleFrom="md">Intake</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map(({ record, pending, pendingFields, presence }) => (
                  <Table.Tr
                    key={record.id}
                    onClick={() => setOpenId(record.id)}
                    style={{ cursor: 'pointer' }}
                    aria-label={record.name}
                  >
                    <Table.Td>
                      <PetPhoto url={record.image_url} name={record.name} size={40} />
                    </Table.Td>
                    <Table.Td>
                      <UnstyledButton
                        onClick={(event) => {
                          event.stopPropagation();
                          setOpenId(record.id);
                        }}
                      >
                        <Text fw={600} size="sm">
                          {record.name}
                        </Text>
                      </UnstyledButton>
                      <Text size="xs" c="dimmed">
                        {record.custom_id ?? (presence === 'local' ? 'New on this desk' : '')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{humanize(record.species)}</Text>
                      <Text size="xs" c="dimmed">
                        {humanize(record.sex)} · {humanize(record.age_category)}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Text size="sm" lineClamp={1}>
                        {record.breed.join(', ') || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Badge color={statusColor(record.status)} variant="light">
                          {humanize(record.status)}
                        </Badge>
                        {!record.show_public && presence !== 'local' && (
                          <Badge color="gray" variant="outline" size="xs">
                            Not public
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Text size="sm">{formatDate(record.intake_date)}</Text>
                    </Table.Td>
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
                No pets match. Try fewer words or clear a filter.
              </Text>
            )}
            {pages > 1 && (
              <Group justify="center" py="sm">
                <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Pages" />
              </Group>
            )}
          </Paper>
        )}
      </Stack>
      <PetDrawer id={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
