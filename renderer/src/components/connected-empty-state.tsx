import type { TablerIcon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useDeskStatus } from '../bridge/hooks';
import { useConnected, useNotSetUp } from '../lib/connection';
import { firstSyncProgressWords, nothingHereBecause } from '../lib/first-sync';
import { EmptyState, type EmptyStateProps } from './empty-state';

export interface ConnectedEmptyStateProps {
  icon: TablerIcon;
  title: string;
  /** The title while the first sync runs, and while none completed, when not `title`. */
  firstSyncTitle?: string;
  neverSyncedTitle?: string;
  /** What comes with the first sync, as the sentences about it begin: "They" (the default), "The overview’s figures". */
  what?: string;
  /** What the screen shows once the desk is connected (it has no connection yet). */
  noConnection: ReactNode;
  /** The desk synced, and the shelter has none of these yet. */
  noneYet: ReactNode;
  noneYetAction?: EmptyStateProps['action'];
}

/**
 * The empty state of a screen on a desk that syncs with a server: why it is empty (no connection, the first sync
 * under way or not completed, or none in the shelter yet) and the next step, never "connect" on a desk that is
 * connected.
 */
export function ConnectedEmptyState({
  icon,
  title,
  firstSyncTitle = title,
  neverSyncedTitle = title,
  what = 'They',
  noConnection,
  noneYet,
  noneYetAction,
}: ConnectedEmptyStateProps) {
  const connected = useConnected();
  const notSetUp = useNotSetUp();
  const { status } = useDeskStatus();
  switch (nothingHereBecause(connected, status)) {
    case 'first-sync': {
      const progress = status && firstSyncProgressWords(status);
      return (
        <EmptyState icon={icon} title={firstSyncTitle} action={{ label: 'Follow the sync', href: '/sync' }}>
          {what} come with this desk’s first sync with your shelter, which is under way
          {progress ? ` (${progress})` : ''}.
        </EmptyState>
      );
    }
    case 'never-synced':
      return (
        <EmptyState icon={icon} title={neverSyncedTitle} action={{ label: 'See why on Sync', href: '/sync' }}>
          {what} come with this desk’s first sync with your shelter, which has not completed yet. Sync says
          why and lets you try again.
        </EmptyState>
      );
    case 'none-yet':
      return (
        <EmptyState icon={icon} title={title} {...(noneYetAction && { action: noneYetAction })}>
          {noneYet}
        </EmptyState>
      );
    case 'no-connection':
      return (
        <EmptyState
          icon={icon}
          title={title}
          action={
            notSetUp
              ? { label: 'Set up this desk', href: '/welcome' }
              : { label: 'Connect to your shelter', href: '/settings' }
          }
        >
          {noConnection}
          {notSetUp &&
            ' This desk is not set up yet: connect it to your shelter’s server, or run your shelter on this computer if it is the only desk.'}
        </EmptyState>
      );
  }
}
