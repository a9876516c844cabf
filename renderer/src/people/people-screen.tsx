import {
  Badge,
  Button,
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
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconHeartHandshake,
  IconHome,
  IconHomeShare,
  IconSearch,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { PERSON_STATUSES } from '../../../shared/contract';
import { peopleCount } from '../../../shared/wording/counts';
import { useDeskQuery } from '../bridge/hooks';
import { ChoiceSelect } from '../components/choice-select';
import { ConnectedEmptyState } from '../components/connected-empty-state';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { useLeaveGuard } from '../components/leave-guard';
import { RecordBadges } from '../components/record-badges';
import { RestoredDraftNotice } from '../components/restored-draft-notice';
import { SAVED_SIGN_UPS_KEY, SavedRecordCard } from '../components/saved-record-card';
import { ScreenHeader } from '../components/screen-header';
import { useStandalone } from '../lib/connection';
import { useDrawerClose } from '../lib/drawer-close';
import { type RestoredDraft, useKeptDraft } from '../lib/kept-draft';
import { useNeedsAttention, useReloadOnChange } from '../lib/live-data';
import { useOpenRequests } from '../lib/open-record';
import { rememberForScreen, useRememberedState } from '../lib/remembered';
import { useRovingRows } from '../lib/roving-rows';
import { humanize } from '../lib/words';
import { KeptSignUpQuestion } from './kept-sign-up-question';
import classes from './people-rows.module.css';
import { PersonDrawer } from './person-drawer';
import { PersonForm, type SignedUp } from './person-form';
import { type PersonDraft, type PersonFormType, readKeptPersonDraft } from './person-form-state';

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

/** The kinds of people signed up like adopters (the sign-up offers them) but kept off most shelters' lists. */
const OTHER_KINDS = [
  { type: 'volunteer', label: 'Volunteers', icon: IconUsers, counted: 'volunteers' },
  { type: 'surrender', label: 'Surrenders', icon: IconHomeShare, counted: 'surrenders' },
] as const;

/**
 * The sign-up the desk kept, read once a window (a visit to People later does not offer it again): the read, and
 * whether a People screen has taken what it found. Kept here rather than in a screen, so a People screen left and
 * entered again before the read ends waits for the same read, and still offers what it finds.
 */
const keptSignUpOffer: {
  read: Promise<RestoredDraft<PersonDraft> | undefined> | undefined;
  taken: boolean;
} = { read: undefined, taken: false };

export function PeopleScreen() {
  const [tab, setTab] = useRememberedState<PersonFormType>('people.tab', 'adopter');
  const [openId, setOpenId] = useState<string | null>(null);
  const standalone = useStandalone();
  useOpenRequests('person', (request) => {
    if (request.personType) setTab(request.personType);
    setOpenId(request.id);
  });
  const [creating, setCreating] = useState<PersonFormType | null>(null);
  // A sign-up started from a pet's page applies for that pet.
  const [applyingFor, setApplyingFor] = useState<string[]>([]);
  useOpenRequests('sign-up', (request) => {
    const type = request.personType ?? 'adopter';
    setTab(type);
    setOpenId(null);
    startSignUp(type, request.id ? [request.id] : []);
  });
  const [saved, setSaved] = useRememberedState<SignedUp[]>(SAVED_SIGN_UPS_KEY, []);
  /** The person the sign-up form saved as it closes (not set when it is cancelled). */
  const justSignedUp = useRef<string>(undefined);
  const signUpGuard = useLeaveGuard('this sign-up');
  // A sign-up the desk kept through a reload or a restart: offered until continued or discarded.
  const keptSignUp = useKeptDraft('sign-up', readKeptPersonDraft);
  const [resumable, setResumable] = useRememberedState<RestoredDraft<PersonDraft> | undefined>(
    'people.keptSignUp',
    undefined,
  );
  const [resumed, setResumed] = useState<PersonDraft>();
  const [keptNoticeHidden, setKeptNoticeHidden] = useState(false);
  // A sign-up asked for while one is kept: started once staff have said what becomes of the kept one.
  const [startAsked, setStartAsked] = useState<{ type: PersonFormType; applyFor: string[] }>();
  const { restore } = keptSignUp;
  // Whether what the desk keeps has been read: a sign-up asked for before then (an adoption started from a pet
  // opens People with one) waits for it, so it cannot open over a kept one unasked.
  const [keptRead, setKeptRead] = useState(false);
  useEffect(() => {
    let mounted = true;
    keptSignUpOffer.read ??= new Promise((resolve) => {
      void restore(resolve).finally(() => resolve(undefined));
    });
    void keptSignUpOffer.read.then((draft) => {
      if (!mounted) return;
      if (draft && !keptSignUpOffer.taken) setResumable(draft);
      keptSignUpOffer.taken = true;
      setKeptRead(true);
    });
    return () => {
      mounted = false;
    };
  }, [restore, setResumable]);
  const [signUpAsked, setSignUpAsked] = useState<{ type: PersonFormType; applyFor: string[] }>();
  useEffect(() => {
    if (!signUpAsked || !keptRead) return;
    setSignUpAsked(undefined);
    if (resumable) {
      setStartAsked(signUpAsked);
      return;
    }
    setApplyingFor(signUpAsked.applyFor);
    setCreating(signUpAsked.type);
  }, [signUpAsked, keptRead, resumable]);
  const stopCreating = () => {
    setCreating(null);
    setApplyingFor([]);
    setResumed(undefined);
  };
  function startSignUp(type: PersonFormType, applyFor: string[] = []) {
    setSignUpAsked({ type, applyFor });
  }
  function continueKeptSignUp() {
    if (!resumable) return;
    setResumed(resumable.value);
    setTab(resumable.value.type);
    setCreating(resumable.value.type);
    setResumable(undefined);
  }
  function discardKeptSignUp() {
    keptSignUp.keep(null);
    setResumable(undefined);
  }
  const closeSignUp = useDrawerClose(creating !== null, signUpGuard.guard(stopCreating));
  const counts = useDeskQuery('mirror.counts');
  useReloadOnChange(['adopters', 'fosters', 'people'], counts.reload);
  // Volunteers and surrenders have a tab once there are some (or one is open): most desks sign up adopters only.
  const otherKinds = OTHER_KINDS.map((kind) => ({ ...kind, count: counts.data?.[kind.counted] ?? 0 })).filter(
    (kind) => kind.count > 0 || tab === kind.type,
  );

  return (
    <>
      <ScreenHeader
        title="People"
        description="The people your shelter works with, their contact details and status, searchable on this desk at any time."
        actions={
          <Button leftSection={<IconUserPlus aria-hidden size={18} />} onClick={() => startSignUp(tab)}>
            New {tab}
          </Button>
        }
      />
      <Stack gap="md">
        {resumable && creating === null && !keptNoticeHidden && (
          <RestoredDraftNotice savedAt={resumable.savedAt} onClose={() => setKeptNoticeHidden(true)}>
            <Text size="sm">
              The sign-up of {resumable.value.name.trim() || 'someone'} was not saved when the desk was
              reloaded or closed. It is kept on this desk as it was left.
            </Text>
            <Group gap="sm" mt="sm">
              <Button size="xs" onClick={continueKeptSignUp}>
                Continue this sign-up
              </Button>
              <Button size="xs" variant="default" onClick={discardKeptSignUp}>
                Discard it
              </Button>
            </Group>
          </RestoredDraftNotice>
        )}
        {saved.map((person) => (
          <SavedRecordCard
            key={person.id}
            kind="person"
            id={person.id}
            name={person.name}
            title={(name) => `${name} is signed up${person.withApplication ? ', with an application' : ''}`}
            label={(name) => `Signed up ${name}`}
            standalone={standalone}
            onOpen={setOpenId}
            onDismiss={() => setSaved((previous) => previous.filter((each) => each.id !== person.id))}
          />
        ))}
        <Tabs
          value={tab}
          onChange={(value) => value && setTab(value as PersonFormType)}
          variant="pills"
          radius="md"
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="adopter" leftSection={<IconHeartHandshake aria-hidden size={16} />}>
              Adopters {counts.data ? `(${counts.data.adopters.toLocaleString()})` : ''}
            </Tabs.Tab>
            <Tabs.Tab value="foster" leftSection={<IconHome aria-hidden size={16} />}>
              Fosters {counts.data ? `(${counts.data.fosters.toLocaleString()})` : ''}
            </Tabs.Tab>
            {otherKinds.map(({ type, label, icon: Icon, count }) => (
              <Tabs.Tab key={type} value={type} leftSection={<Icon aria-hidden size={16} />}>
                {label} ({count.toLocaleString()})
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="adopter">
            {counts.data?.adopters === 0 && standalone !== undefined ? (
              standalone ? (
                <EmptyState icon={IconHeartHandshake} title="No adopters here yet">
                  This desk runs your shelter (standalone mode). Sign up your first adopter with “New adopter”
                  above; people who apply through a desk connected to this one appear here too.
                </EmptyState>
              ) : (
                <ConnectedEmptyState
                  icon={IconHeartHandshake}
                  title="No adopters here yet"
                  noConnection="Adopters and their applications come from your shelter’s server. Once this desk is connected, you can find anyone by name, email or phone, even offline. You can also sign up a new adopter now."
                  noneYet="Your shelter has no adopters yet. Sign up the first with “New adopter” above."
                />
              )
            ) : (
              tab === 'adopter' && <PeopleList type="adopter" onOpen={setOpenId} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="foster">
            {counts.data?.fosters === 0 && standalone !== undefined ? (
              standalone ? (
                <EmptyState icon={IconHome} title="No fosters here yet">
                  This desk runs your shelter (standalone mode). Add your first foster home with “New foster”
                  above, with how many animals it can take.
                </EmptyState>
              ) : (
                <ConnectedEmptyState
                  icon={IconHome}
                  title="No fosters here yet"
                  noConnection="Foster homes and how many animals each can take appear after the first sync."
                  noneYet="Your shelter has no foster homes yet. Add the first with “New foster” above, with how many animals it can take."
                />
              )
            ) : (
              tab === 'foster' && <PeopleList type="foster" onOpen={setOpenId} />
            )}
          </Tabs.Panel>
          {otherKinds.map(({ type, label, icon, count }) => (
            <Tabs.Panel key={type} value={type}>
              {counts.data && count === 0 ? (
                <EmptyState icon={icon} title={`No ${label.toLowerCase()} here yet`}>
                  Sign one up with “New {type}” above.
                </EmptyState>
              ) : (
                tab === type && <PeopleList type={type} onOpen={setOpenId} />
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>

      <PersonDrawer
        id={openId}
        onClose={() => setOpenId(null)}
        onOpen={setOpenId}
        // Opened from a sign-up's duplicate warning: over the sign-up, which is there again once this closes.
        zIndex={creating !== null ? 300 : undefined}
      />
      <Drawer
        opened={creating !== null}
        onClose={closeSignUp}
        // The focus goes back to what opened the form; when that is gone (the list moved to the person's tab), to
        // the card of the person just signed up rather than to the page.
        onExitTransitionEnd={() => {
          const saved = justSignedUp.current;
          justSignedUp.current = undefined;
          if (saved && (document.activeElement === null || document.activeElement === document.body)) {
            document.querySelector<HTMLElement>(`[data-saved-record="${CSS.escape(saved)}"]`)?.focus();
          }
        }}
        position="right"
        size="xl"
        title={<Text fw={600}>Sign someone up</Text>}
      >
        {creating !== null && (
          <PersonForm
            initialType={creating}
            applyFor={applyingFor}
            resumed={resumed}
            onTypedChange={signUpGuard.reportTyped}
            onCancel={signUpGuard.guard(stopCreating)}
            onOpenDuplicate={setOpenId}
            onSaved={(person) => {
              justSignedUp.current = person.id;
              stopCreating();
              // The list shows where the person went.
              setTab(person.type);
              setSaved((previous) => [person, ...previous]);
            }}
          />
        )}
      </Drawer>
      {signUpGuard.modal}
      <KeptSignUpQuestion
        keptName={resumable?.value.name ?? ''}
        opened={startAsked !== undefined && resumable !== undefined}
        onClose={() => setStartAsked(undefined)}
        onContinue={() => {
          setStartAsked(undefined);
          continueKeptSignUp();
        }}
        onStartNew={() => {
          const start = startAsked;
          setStartAsked(undefined);
          discardKeptSignUp();
          if (start) {
            setApplyingFor(start.applyFor);
            setCreating(start.type);
          }
        }}
      />
    </>
  );
}

function PeopleList({ type, onOpen }: { type: PersonFormType; onOpen(id: string): void }) {
  const [search, setSearch] = useRememberedState(`people.${type}.search`, '');
  const [debounced] = useDebouncedValue(search.trim(), 120);
  const [status, setStatus] = useRememberedState<string | null>(`people.${type}.status`, null);
  const [page, setPage] = useRememberedState(`people.${type}.page`, 1);
  const list = useDeskQuery('mirror.people.list', {
    type,
    ...(debounced && { search: debounced }),
    ...(status && { status }),
    sort: debounced ? 'relevance' : 'name',
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const needsAttention = useNeedsAttention();
  useReloadOnChange(['adopters', 'fosters', 'people'], list.reload);
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const rowsRef = useRef<HTMLTableSectionElement>(null);
  const rows = useRovingRows(data?.items.length ?? 0, rowsRef);

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name, email or phone"
          leftSection={<IconSearch aria-hidden size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 240, maxWidth: 480 }}
        />
        <ChoiceSelect
          label="Status"
          placeholder="All statuses"
          data={PERSON_STATUSES.map((value) => ({ value, label: humanize(value) }))}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          clearable
          w={170}
        />
      </Group>
      {list.error && <DeskErrorAlert error={list.error} title="The list did not load" />}
      {!data && list.loading && <Loader aria-label="Loading people" />}
      {data && (
        <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
          <Text
            size="sm"
            c="dimmed"
            px="md"
            py="xs"
            role="status"
            aria-label="People count"
            // The search the rows on show answer (tests wait for it before picking a row).
            data-results-for={list.loading || debounced !== search.trim() ? undefined : debounced}
          >
            {peopleCount(data.total)}
          </Text>
          <Table
            highlightOnHover
            verticalSpacing="xs"
            aria-label={
              OTHER_KINDS.find((kind) => kind.type === type)?.label ??
              (type === 'adopter' ? 'Adopters' : 'Fosters')
            }
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th visibleFrom="sm">Email</Table.Th>
                <Table.Th visibleFrom="sm">Phone</Table.Th>
                <Table.Th>Status</Table.Th>
                {type === 'foster' && <Table.Th visibleFrom="md">Capacity</Table.Th>}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody ref={rowsRef}>
              {data.items.map(({ record, pending, pendingFields, presence }, index) => (
                <Table.Tr
                  key={record.id}
                  data-row-index={index}
                  tabIndex={index === rows.active ? 0 : -1}
                  className={classes.person}
                  onClick={() => onOpen(record.id)}
                  onFocus={() => rows.onRowFocus(index)}
                  onKeyDown={(event) => rows.onRowKeyDown(index, event, () => onOpen(record.id))}
                  aria-label={record.name}
                >
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {record.name}
                    </Text>
                    {/* In a narrow window the email goes under the name, so the status keeps its column. */}
                    {record.email && (
                      <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                        {record.email}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
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
              {status
                ? `Nobody ${debounced ? 'matches' : 'here'} with the status ${humanize(status)}. Clear the Status filter to see everyone.`
                : 'Nobody matches. Try part of the name, the email or the last digits of the phone.'}
            </Text>
          )}
          {data.items.length === 0 && debounced && (
            <MatchesOfOtherKinds search={debounced} type={type} onOpen={onOpen} />
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

/** People of the other kinds the search finds, when this tab finds none: "Chloe Dubois is a foster", a click away. */
function MatchesOfOtherKinds({
  search,
  type,
  onOpen,
}: {
  search: string;
  type: PersonFormType;
  onOpen(id: string): void;
}) {
  const others = useDeskQuery('mirror.people.list', { search, sort: 'relevance', limit: 6 });
  const found = (others.data?.items ?? []).filter((item) => item.record.type !== type).slice(0, 5);
  if (found.length === 0) return null;
  return (
    <Stack component="section" gap={4} align="center" pb="lg" aria-label="Found among other people">
      <Text size="sm">Found among other people:</Text>
      {found.map(({ record }) => (
        <Button key={record.id} variant="subtle" size="compact-sm" onClick={() => onOpen(record.id)}>
          {record.name} ({humanize(record.type)})
        </Button>
      ))}
    </Stack>
  );
}

/** Opens People on those whose status is pending (adopters first, unless only fosters wait), as the Overview counts. */
export function showPendingPeople(adoptersWaiting: number): void {
  const values: Record<string, unknown> = { tab: adoptersWaiting > 0 ? 'adopter' : 'foster' };
  for (const type of ['adopter', 'foster']) {
    Object.assign(values, { [`${type}.status`]: 'pending', [`${type}.search`]: '', [`${type}.page`]: 1 });
  }
  rememberForScreen('people', values);
}
