import { Button, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPaw, IconPlus, IconSearch } from '@tabler/icons-react';
import { type RefObject, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { MirrorPet } from '../../../shared/desk-api';
import { useDeskQuery } from '../bridge/hooks';
import { ConnectedEmptyState } from '../components/connected-empty-state';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useStandalone } from '../lib/connection';
import { useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import { useOpenRequests } from '../lib/open-record';
import { useRememberedScroll, useRememberedState } from '../lib/remembered';
import { EventCardsButton } from '../print/event-cards-button';
import { useFillingProgress } from './filling';
import { fillingWords } from './filling-progress';
import { PetDrawer } from './pet-drawer';
import { PetFilterSelects, PetVisibilityFilters, type Sort, VISIBILITY } from './pet-filters';
import { FIRST_PET_FILTERS, petListQuery, petsTheListCanShow } from './pet-list-query';
import { PetRows } from './pet-rows';
import { type ListPages, useListPages } from './use-list-pages';

export function PetsScreen() {
  // Filters, sort and search stay as they were when staff come back to the list.
  const [search, setSearch] = useRememberedState('pets.search', FIRST_PET_FILTERS.search);
  const [species, setSpecies] = useRememberedState('pets.species', FIRST_PET_FILTERS.species);
  const [status, setStatus] = useRememberedState('pets.status', FIRST_PET_FILTERS.status);
  const [visibility, setVisibility] = useRememberedState('pets.visibility', 'all');
  const [pendingOnly, setPendingOnly] = useRememberedState('pets.pendingOnly', FIRST_PET_FILTERS.pendingOnly);
  const [sort, setSort] = useRememberedState<Sort>('pets.sort', FIRST_PET_FILTERS.sort);
  const [direction, setDirection] = useRememberedState('pets.direction', FIRST_PET_FILTERS.direction);
  const drawer = useRef<PetOpener>(null);
  const openPet = useCallback((pet: MirrorPet) => drawer.current?.(pet), []);

  const text = search.trim();
  // The words the rows on show answer: while a new search is asked, the rows (and what they show) are the last one's.
  const [answeredSearch, setAnsweredSearch] = useState(text);
  const query = petListQuery({
    search,
    species,
    status,
    presence: VISIBILITY[visibility]?.presence,
    pendingOnly,
    sort,
    direction,
  });
  const pages = useListPages('mirror.pets.list', query);
  if (pages.current && answeredSearch !== text) setAnsweredSearch(text);
  const openIfOnlyOne = useOpenIfOnlyOne(pages, openPet);
  const counts = useDeskQuery('mirror.counts');
  const statuses = useDeskQuery('mirror.pets.statuses');
  const standalone = useStandalone();
  const needsAttention = useNeedsAttention();
  const filling = useFillingProgress('pets');
  useReloadOnChange(['pets'], () => {
    pages.reload();
    counts.reload();
    statuses.reload();
  });

  // A new search or filter shows its results from the top; coming back restores where the list was.
  const scroll = useRememberedScroll('pets', pages.total !== undefined);
  const queryKey = JSON.stringify(query);
  const lastKey = useRef(queryKey);
  const { toTop } = scroll;
  useEffect(() => {
    if (lastKey.current !== queryKey) {
      lastKey.current = queryKey;
      toTop();
    }
  }, [queryKey, toTop]);

  const total = counts.data ? petsTheListCanShow(counts.data) : undefined;
  const header = (
    <ScreenHeader
      title="Pets"
      description="Every animal your shelter has recorded, in care or placed, kept on this desk so you can look them up even when the internet is down."
      actions={
        <Button component="a" href="#/intake" leftSection={<IconPlus aria-hidden size={18} />}>
          New intake
        </Button>
      }
    />
  );

  if (total === 0 && !filling && standalone !== undefined) {
    return (
      <>
        {header}
        {standalone ? (
          <EmptyState
            icon={IconPaw}
            title="No pets yet"
            action={{ label: 'Record an intake', href: '/intake' }}
          >
            This desk hosts your shelter on its own (standalone mode), so the list starts empty. Record your
            first arrival under Intake; other desks on your network can connect to this one and see it too.
          </EmptyState>
        ) : (
          <ConnectedEmptyState
            icon={IconPaw}
            title="No pets on this desk yet"
            noConnection="Pets appear here after this desk has synced with your shelter’s server once; after that, the list stays available offline and updates by itself."
            noneYet="Your shelter has no pets recorded yet. Record the first arrival under Intake; pets recorded on other desks appear here with the next sync."
            noneYetAction={{ label: 'Record an intake', href: '/intake' }}
          />
        )}
      </>
    );
  }

  const shown = pages.total;
  return (
    <>
      {header}
      <Stack gap="md">
        <Paper withBorder radius="lg" p="md">
          <Stack gap="sm">
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                label="Search"
                placeholder="Name, breed, shelter id or microchip"
                leftSection={<IconSearch aria-hidden size={16} />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && !event.nativeEvent.isComposing) openIfOnlyOne();
                }}
                style={{ flex: 1, minWidth: 240 }}
                data-autofocus
              />
              <PetFilterSelects
                species={species}
                onSpecies={setSpecies}
                status={status}
                onStatus={setStatus}
                statuses={statuses.data}
                sort={sort}
                onSort={setSort}
                effectiveSort={query.sort}
                direction={direction}
                onDirection={setDirection}
              />
            </Group>
            <Group gap="lg" justify="space-between">
              <PetVisibilityFilters
                visibility={visibility}
                onVisibility={setVisibility}
                pendingOnly={pendingOnly}
                onPendingOnly={setPendingOnly}
              />
            </Group>
          </Stack>
        </Paper>

        {pages.error && <DeskErrorAlert error={pages.error} title="The pet list did not load" />}
        {shown === undefined && pages.loading && <Loader aria-label="Loading pets" />}
        {shown !== undefined && (
          <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
            <Group justify="space-between" px="md" py="xs">
              <Text
                size="sm"
                c="dimmed"
                role="status"
                aria-label="Pet count"
                // The search the rows on show answer (benchmarks and tests wait for it).
                data-results-for={pages.current ? text : undefined}
              >
                {filling
                  ? fillingWords(filling, 'pets')
                  : `${shown === 1 ? '1 pet' : `${shown.toLocaleString()} pets`}${
                      total !== undefined && shown !== total ? ` of ${total.toLocaleString()}` : ''
                    }`}
              </Text>
              <Group gap="xs">
                {pages.loading && <Loader size="xs" aria-label="Updating" />}
                <EventCardsButton query={query} count={shown} />
              </Group>
            </Group>
            <PetRows pages={pages} search={answeredSearch} needsAttention={needsAttention} onOpen={openPet} />
            {shown === 0 && (
              <Text ta="center" c="dimmed" py="xl">
                No pets match. Try fewer words or clear a filter.
              </Text>
            )}
          </Paper>
        )}
      </Stack>
      <PetDrawerHost opener={drawer} />
    </>
  );
}

type PetOpener = (pet: MirrorPet) => void;

/**
 * The drawer of the pet on show, with its own state: opening a pet renders the drawer, not the whole list screen
 * (its filters and pickers) again. The list's copy of the record goes along, so the drawer shows it before the core
 * answers.
 */
function PetDrawerHost({ opener }: { opener: RefObject<PetOpener | null> }) {
  const [open, setOpen] = useState<{ id: string; pet?: MirrorPet } | null>(null);
  useOpenRequests('pet', (request) => setOpen({ id: request.id }));
  useImperativeHandle(opener, () => (pet) => setOpen({ id: pet.record.id, pet }), []);
  return (
    <PetDrawer
      id={open?.id ?? null}
      initial={open?.pet}
      onClose={() => setOpen(null)}
      onOpen={(id) => setOpen({ id })}
    />
  );
}

/**
 * Enter in the search opens the pet when the search finds exactly one (a microchip read by a scanner, which types its
 * digits and Enter): as soon as the answer for what was typed has arrived.
 */
function useOpenIfOnlyOne(pages: ListPages<MirrorPet>, open: (pet: MirrorPet) => void): () => void {
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!asked || !pages.current || pages.loading) return;
    setAsked(false);
    const only = pages.total === 1 ? pages.itemAt(0) : undefined;
    if (only) open(only);
  }, [asked, pages, open]);
  return () => setAsked(true);
}
