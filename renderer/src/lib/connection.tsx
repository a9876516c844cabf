import { createContext, type ReactNode, useContext, useRef } from 'react';
import type { DeskOutput } from '../../../shared/desk-api';
import { type DeskQuery, useDeskEvent, useDeskQuery } from '../bridge/hooks';
import { useReloadOnChange } from './live-data';

type ConnectionQuery = DeskQuery<DeskOutput<'sync.connection.get'>>;

const ConnectionContext = createContext<ConnectionQuery | undefined>(undefined);

/**
 * Where this desk syncs, asked once for the whole window and shared by every screen, the header and the notices:
 * asked again when the desk switches connection (the switch announces every collection as changed) and when a sync
 * names another address (the desk moved to the shelter's encrypted connection).
 */
export function ConnectionProvider({ children }: { children: ReactNode }) {
  const connection = useDeskQuery('sync.connection.get');
  useReloadOnChange(['metadata'], connection.reload);
  const shownRemote = useRef<string | null>(null);
  useDeskEvent('status', (event) => {
    if (event.status.remote === shownRemote.current) return;
    shownRemote.current = event.status.remote;
    connection.reload();
  });
  return <ConnectionContext.Provider value={connection}>{children}</ConnectionContext.Provider>;
}

/** The desk's connection (see `ConnectionProvider`); `reload` after changing it. */
export function useConnection(): ConnectionQuery {
  const connection = useContext(ConnectionContext);
  if (!connection) throw new Error('useConnection needs a ConnectionProvider above it (see App).');
  return connection;
}

/**
 * Whether this desk runs its shelter itself (standalone), for empty states that say what to do here; undefined
 * until the connection has loaded (false when it could not be read: the connected desk's words then). Followed when
 * the desk switches connection (the switch announces every collection as changed).
 */
export function useStandalone(): boolean | undefined {
  const connection = useConnection();
  if (connection.data) return connection.data.mode === 'standalone';
  return connection.error ? false : undefined;
}
