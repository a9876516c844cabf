import { IconLayoutDashboard } from '@tabler/icons-react';
import type { DeskStatus } from '../../../shared/desk-api';
import { EmptyState } from '../components/empty-state';
import { firstSyncProgressWords, nothingHereBecause } from '../lib/first-sync';

/** The Overview of a desk with no pets that does not run the shelter itself: why it is empty and what to do. */
export function ConnectedOverviewEmpty({
  connected,
  status,
}: {
  connected: boolean | undefined;
  status: DeskStatus | undefined;
}) {
  switch (nothingHereBecause(connected, status)) {
    case 'first-sync': {
      const progress = status && firstSyncProgressWords(status);
      return (
        <EmptyState
          icon={IconLayoutDashboard}
          title="Your shelter’s records are on their way"
          action={{ label: 'Follow the sync', href: '/sync' }}
        >
          This desk is syncing with your shelter for the first time{progress ? ` (${progress})` : ''}. The
          overview fills in when the sync is done; you can record an intake meanwhile.
        </EmptyState>
      );
    }
    case 'never-synced':
      return (
        <EmptyState
          icon={IconLayoutDashboard}
          title="Not synced yet"
          action={{ label: 'Open Sync', href: '/sync' }}
        >
          This desk is set up for your shelter but has not completed a sync with it, so it holds none of its
          pets yet. Sync says why and lets you try again.
        </EmptyState>
      );
    case 'none-yet':
      return (
        <EmptyState
          icon={IconLayoutDashboard}
          title="Nothing to show yet"
          action={{ label: 'Record an intake', href: '/intake' }}
        >
          Your shelter has no animals in its care, and no arrivals or adoptions in the last 12 months. The
          overview fills in as pets are recorded, on this desk or any other.
        </EmptyState>
      );
    case 'no-connection':
      return (
        <EmptyState
          icon={IconLayoutDashboard}
          title="Nothing to show yet"
          action={{ label: 'Connect to your shelter', href: '/settings' }}
        >
          The overview fills in once this desk holds your shelter’s pets: after the first sync, or after the
          first intake on this desk.
        </EmptyState>
      );
  }
}
