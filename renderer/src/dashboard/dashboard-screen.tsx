import '@mantine/charts/styles.css';
import { Alert, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconLayoutDashboard } from '@tabler/icons-react';
import { useDeskEvent, useDeskQuery, useDeskStatus } from '../bridge/hooks';
import { ConnectedEmptyState } from '../components/connected-empty-state';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useConnected, useStandalone } from '../lib/connection';
import { formatCalendarDate } from '../lib/dates';
import { nothingHereBecause } from '../lib/first-sync';
import { useReloadOnChange } from '../lib/live-data';
import { showPendingPeople } from '../people/people-screen';
import { showPetsInCare } from '../pets/pet-list-query';
import { FostersPanel, InCarePanels, MonthsPanel, Stat, StayPanel } from './dashboard-panels';
import { partialFiguresWords } from './partial-figures';

/** The shelter at a glance, from this desk's copy of the records: works offline, stays current with every sync. */
export function DashboardScreen() {
  const dashboard = useDeskQuery('dashboard.get');
  const standalone = useStandalone();
  const connected = useConnected();
  const { status, error: statusError } = useDeskStatus();
  useReloadOnChange(['pets', 'people', 'adopters', 'fosters'], dashboard.reload);
  useDeskEvent('outbox', dashboard.reload);
  const header = (
    <ScreenHeader
      title="Overview"
      description="How many animals are in your care, how they came and went this year, and what is waiting for you."
    />
  );
  if (dashboard.error) {
    return (
      <>
        {header}
        <DeskErrorAlert error={dashboard.error} title="The overview did not load" />
      </>
    );
  }
  const data = dashboard.data;
  // Until the connection and how far its sync has come are known, which empty state applies is not.
  if (!data || standalone === undefined || (!standalone && status === undefined && !statusError)) {
    return (
      <>
        {header}
        <Loader aria-label="Loading the overview" />
      </>
    );
  }
  const partial = connected ? partialFiguresWords(status) : undefined;
  const empty =
    data.inCare.total === 0 && data.months.every((row) => row.intakes === 0 && row.adoptions === 0);
  // A row of zeros says nothing about a shelter whose records have not come yet: the empty state says why instead.
  const nothingCountedYet =
    empty &&
    !standalone &&
    nothingHereBecause(connected, status) !== 'none-yet' &&
    data.applications.waiting === 0 &&
    data.fosters.places === 0 &&
    data.sync.waiting === 0;
  return (
    <>
      {header}
      <Stack gap="lg">
        {partial && !nothingCountedYet && (
          <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} role="note">
            {partial}
          </Alert>
        )}
        {!nothingCountedYet && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
            <Stat
              label="Animals in care"
              value={data.inCare.total}
              detail="See the pets in care"
              href="#/pets"
              onFollow={() => showPetsInCare()}
            />
            <Stat
              label="People waiting"
              value={data.applications.waiting}
              detail={`Pending: ${data.applications.adopters} adopter${data.applications.adopters === 1 ? '' : 's'}, ${data.applications.fosters} foster${data.applications.fosters === 1 ? '' : 's'}`}
              href="#/people"
              onFollow={() => showPendingPeople(data.applications.adopters)}
            />
            <Stat
              label="Free foster places"
              value={data.fosters.free}
              detail={`${data.fosters.places} places offered in all`}
            />
            <Stat
              label="Unsent changes"
              value={data.sync.waiting}
              detail={
                data.sync.needsAttention > 0 ? `${data.sync.needsAttention} need your attention` : 'Open Sync'
              }
              href="#/sync"
            />
          </SimpleGrid>
        )}
        {empty ? (
          standalone ? (
            <EmptyState
              icon={IconLayoutDashboard}
              title="Nothing to show yet"
              action={{ label: 'Record an intake', href: '/intake' }}
            >
              This desk runs your shelter (standalone mode): the overview fills in as pets are recorded here.
              Start with your first arrival under Intake.
            </EmptyState>
          ) : (
            <ConnectedEmptyState
              icon={IconLayoutDashboard}
              title="Nothing to show yet"
              firstSyncTitle="Your shelter’s records are on their way"
              neverSyncedTitle="Not synced yet"
              what="The overview’s figures"
              noConnection="The overview fills in once this desk holds your shelter’s pets: after the first sync, or after the first intake on this desk."
              noneYet="Your shelter has no animals in its care, and no arrivals or adoptions in the last 12 months. The overview fills in as pets are recorded, on this desk or any other."
              noneYetAction={{ label: 'Record an intake', href: '/intake' }}
            />
          )
        ) : (
          <>
            <InCarePanels data={data} />
            <MonthsPanel data={data} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
              <StayPanel data={data} />
              <FostersPanel data={data} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Figures for {formatCalendarDate(data.today)}, from this desk’s copy of your shelter’s records
              (works offline). People waiting are adopters and fosters whose status is pending.
            </Text>
          </>
        )}
      </Stack>
    </>
  );
}
