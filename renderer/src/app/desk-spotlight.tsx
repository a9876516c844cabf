import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight, type SpotlightStore, useSpotlight } from '@mantine/spotlight';
import { IconAddressBook, IconPaw, IconSearch } from '@tabler/icons-react';
import {
  type Dispatch,
  type FocusEvent,
  type RefObject,
  type SetStateAction,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useLocation } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';
import { unlessTypingHeld } from '../components/leave-guard';
import { startIntake } from '../intake/focus-request';
import { useReloadOnChange } from '../lib/live-data';
import { requestOpen } from '../lib/open-record';
import { humanize } from '../lib/words';
import { SECTIONS } from './sections';
import { peopleFirst } from './spotlight-order';

const [store, deskSpotlight] = createSpotlight();
export const openSpotlight = deskSpotlight.open;

/** The search's list of results, where Mantine marks the chosen one. */
function resultsList(spotlightStore: SpotlightStore): HTMLElement | null {
  const { listId } = spotlightStore.getState();
  return listId ? document.getElementById(listId) : null;
}

/**
 * Marks the first result as chosen, as the search does when the query changes; here also when the results arrive
 * (they are read after the typing pauses), so Enter opens the best match. Mantine marks the chosen one with
 * `data-selected` among the list's `data-action` items.
 */
function chooseFirstResult(spotlightStore: SpotlightStore): void {
  const list = resultsList(spotlightStore);
  if (!list) return;
  list.querySelector('[data-selected]')?.removeAttribute('data-selected');
  const first = list.querySelector('[data-action]');
  first?.setAttribute('data-selected', 'true');
  spotlightStore.updateState((state) => ({ ...state, selected: first ? 0 : -1 }));
}

/**
 * Opens a record from the search: the focus goes to the screen's main region first, so the record's drawer gives it
 * back there when it closes (not to the search box, gone by then, which left it on the page's body); the drawer
 * opens once the search has closed (a frame later).
 */
function openFromSearch(open: () => void): void {
  document.getElementById('main-content')?.focus({ preventScroll: true });
  window.requestAnimationFrame(() => open());
}

/**
 * Keys typed just after Ctrl+K, before the search box took the focus (it does once its dialog is drawn), are typed
 * into it: the focus moves there as the key goes down, which sends the key's character to the box; before the box
 * exists the character is added to the query here. Either way none is lost or lands in the page behind.
 */
function useEarlyTypingReachesSearch(
  box: RefObject<HTMLInputElement | null>,
  setQuery: Dispatch<SetStateAction<string>>,
): void {
  useEffect(() => {
    const early = (event: KeyboardEvent) => {
      if (!store.getState().opened || event.key.length !== 1 || event.isComposing) return;
      // AltGr (Ctrl+Alt on Windows) types characters: "@" on a French or German keyboard.
      const shortcut =
        (event.ctrlKey || event.metaKey || event.altKey) && !event.getModifierState('AltGraph');
      if (shortcut) return;
      const input = box.current;
      if (input === document.activeElement) return;
      // The page's own keys ("?" for the shortcuts) do not see it: it is the search's.
      event.stopPropagation();
      if (input) {
        input.focus();
        return;
      }
      event.preventDefault();
      setQuery((typed) => typed + event.key);
    };
    window.addEventListener('keydown', early, true);
    return () => window.removeEventListener('keydown', early, true);
  }, [box, setQuery]);
}

/** The caret goes to the end of what is in the box when it takes the focus, after what was typed before it had it. */
function caretToEnd(event: FocusEvent<HTMLInputElement>): void {
  const { length } = event.currentTarget.value;
  event.currentTarget.setSelectionRange(length, length);
}

/** Something to do, found by its words: `choose` does it (`navigate` goes to a screen; `shown` is the one shown). */
interface DeskAction {
  id: string;
  label: string;
  hint: string;
  words: string;
  choose(navigate: (to: string) => void, shown: string): void;
}

/** Every screen, plus the everyday starts, which open their forms with the focus in their first field. */
const ACTIONS: DeskAction[] = [
  {
    id: 'intake',
    label: 'New intake',
    hint: 'Record a new arrival',
    words: 'add pet new animal',
    choose: startIntake,
  },
  {
    id: 'adopter',
    label: 'Sign up an adopter',
    hint: 'People',
    words: 'new person add',
    choose: (navigate) =>
      unlessTypingHeld(() => {
        navigate('/people');
        openFromSearch(() => requestOpen({ kind: 'sign-up', id: '', personType: 'adopter' }));
      }),
  },
  ...SECTIONS.map((section) => ({
    id: `go-${section.path}`,
    label: `Go to ${section.label}`,
    hint: section.hint,
    words: section.label,
    choose: (navigate: (to: string) => void) => navigate(section.path),
  })),
];

/**
 * Ctrl+K (⌘K): one search over pets, people and actions, read from this desk's mirror (works offline). Choosing a pet
 * or a person opens it on its screen; choosing an action goes there.
 */
export function DeskSpotlight() {
  const [query, setQuery] = useState('');
  const searchBox = useRef<HTMLInputElement>(null);
  useEarlyTypingReachesSearch(searchBox, setQuery);
  const [debounced] = useDebouncedValue(query.trim(), 60);
  const [location, navigate] = useLocation();
  const searching = debounced.length > 0;
  const pets = useDeskQuery('mirror.pets.list', { search: debounced || ' ', limit: 6 });
  const people = useDeskQuery('mirror.people.list', { search: debounced || ' ', limit: 4 });
  // Records a sync or a write brings while words are typed (a new desk's first sync) are found without retyping.
  useReloadOnChange(['pets'], () => searching && pets.reload());
  useReloadOnChange(['adopters', 'fosters', 'people'], () => searching && people.reload());
  const lower = query.trim().toLowerCase();
  const actions = ACTIONS.filter(
    (action) => !lower || `${action.label} ${action.hint} ${action.words}`.toLowerCase().includes(lower),
  ).slice(0, searching ? 4 : 8);
  // Results of an older query are not shown while the new one is on its way: Enter must never open a pet or a
  // person that no longer matches what is typed. Asked again for the same words, the results shown stay meanwhile.
  const answered = (results: { loading: boolean; refreshing: boolean }) =>
    !results.loading || results.refreshing;
  const current = searching && debounced === query.trim() && answered(pets) && answered(people);
  // A desk started again since this page opened, or a database that cannot be read, is not "nothing matches".
  const failure = current ? (pets.error ?? people.error) : undefined;
  const petItems = current ? (pets.data?.items ?? []) : [];
  const personItems = current ? (people.data?.items ?? []) : [];
  const peopleOnTop = peopleFirst(
    debounced,
    petItems.map(({ record }) => record),
    personItems.map(({ record }) => record.name),
  );
  const petIds = petItems.map(({ record }) => record.id);
  const personIds = personItems.map(({ record }) => record.id);
  const shown = [
    ...(peopleOnTop ? [...personIds, ...petIds] : [...petIds, ...personIds]),
    ...actions.map((action) => action.id),
  ].join(' ');
  // The list appears a moment after the search opens: what was typed before then is already filtered, and its first
  // result is chosen as the list appears.
  const { listId } = useSpotlight(store);
  // biome-ignore lint/correctness/useExhaustiveDependencies: chosen again whenever the results shown change.
  useEffect(() => chooseFirstResult(store), [shown, listId]);
  // Enter pressed before the results of what was typed are in (a quick typist, a slow disk) opens the first of them
  // once they are, not whatever the list showed meanwhile, nor nothing.
  const [enterWaiting, setEnterWaiting] = useState(false);
  const pending = query.trim() !== '' && !current;
  useEffect(() => {
    if (!enterWaiting || !current) return;
    setEnterWaiting(false);
    chooseFirstResult(store);
    resultsList(store)?.querySelector<HTMLElement>('[data-selected]')?.click();
  }, [enterWaiting, current]);

  const petGroup = petItems.length > 0 && (
    <Spotlight.ActionsGroup key="pets" label="Pets">
      {petItems.map(({ record }) => (
        <Spotlight.Action
          key={record.id}
          onClick={() =>
            unlessTypingHeld(() => {
              navigate('/pets');
              openFromSearch(() => requestOpen({ kind: 'pet', id: record.id }));
            })
          }
          leftSection={<IconPaw aria-hidden size={18} stroke={1.6} />}
          label={record.name}
          description={[record.custom_id, humanize(record.species), record.breed.join(', ')]
            .filter(Boolean)
            .join(' · ')}
          rightSection={<Badge variant="light">{humanize(record.status)}</Badge>}
        />
      ))}
    </Spotlight.ActionsGroup>
  );
  const peopleGroup = personItems.length > 0 && (
    <Spotlight.ActionsGroup key="people" label="People">
      {personItems.map(({ record }) => (
        <Spotlight.Action
          key={record.id}
          onClick={() =>
            unlessTypingHeld(() => {
              navigate('/people');
              openFromSearch(() => requestOpen({ kind: 'person', id: record.id, personType: record.type }));
            })
          }
          leftSection={<IconAddressBook aria-hidden size={18} stroke={1.6} />}
          label={record.name}
          description={[humanize(record.type), record.email, record.phone].filter(Boolean).join(' · ')}
        />
      ))}
    </Spotlight.ActionsGroup>
  );

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={(typed) => {
        setEnterWaiting(false);
        setQuery(typed);
      }}
      // Opened again, the search starts empty (what was typed before would be added to).
      onSpotlightClose={() => setQuery('')}
      shortcut={['mod + K']}
      tagsToIgnore={[]}
      scrollable
      maxHeight={480}
      // The dialog's name for screen readers: a title, referenced even while its header is not drawn.
      title="Search"
      styles={{ header: { display: 'none' } }}
    >
      <Spotlight.Search
        ref={searchBox}
        onFocus={caretToEnd}
        onKeyDown={(event) => {
          if (!pending || (event.key !== 'Enter' && event.nativeEvent.code !== 'NumpadEnter')) return;
          // Nothing stays chosen for the search's own Enter, which comes next; the first result is, once shown.
          store.updateState((state) => ({ ...state, selected: -1 }));
          resultsList(store)?.querySelector('[data-selected]')?.removeAttribute('data-selected');
          setEnterWaiting(true);
        }}
        placeholder="Find a pet, a person or something to do"
        aria-label="Search everything"
        leftSection={<IconSearch aria-hidden size={18} />}
      />
      <Spotlight.ActionsList aria-label="Results">
        {failure && (
          <Text size="sm" c="red" px="md" py="xs" role="alert">
            The search did not run: {failure.message}
          </Text>
        )}
        {peopleOnTop ? [peopleGroup, petGroup] : [petGroup, peopleGroup]}
        {actions.length > 0 && (
          <Spotlight.ActionsGroup label="Actions">
            {actions.map((action) => (
              <Spotlight.Action
                key={action.id}
                onClick={() => action.choose(navigate, location)}
                label={action.label}
                description={action.hint}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {!failure && petItems.length + personItems.length + actions.length === 0 && (
          <Spotlight.Empty>
            <Group justify="center">
              <Text c="dimmed">Nothing on this desk matches “{query.trim()}”.</Text>
            </Group>
          </Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
      <Spotlight.Footer>
        <Text size="xs" c="dimmed">
          Up and down arrows to choose, Enter to open, Escape to close
        </Text>
      </Spotlight.Footer>
    </Spotlight.Root>
  );
}
