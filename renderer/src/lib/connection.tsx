import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { DeskError, DeskOutput } from '../../../shared/desk-api';
import { useDesk, useDeskEvent } from '../bridge/hooks';
import { toDeskError } from './desk-error';

type ConnectionSummary = DeskOutput<'sync.connection.get'>;

export interface SharedConnection {
  data: ConnectionSummary | undefined;
  error: DeskError | undefined;
  /** Asks again; resolves once the answer is what every screen sees (await it before a screen depends on it). */
  refresh(): Promise<void>;
}

const ConnectionContext = createContext<SharedConnection | undefined>(undefined);

/**
 * Where this desk syncs, asked once for the whole window and shared by every screen, the header and the notices.
 * Asked again when the desk switches connection (the switch announces the metadata as changed), when a sync names
 * another address (the desk moved to the shelter's encrypted connection), and at the next status while the last
 * asking failed.
 */
export function ConnectionProvider({ children }: { children: ReactNode }) {
  const api = useDesk();
  const [state, setState] = useState<{ data?: ConnectionSummary; error?: DeskError }>({});
  const asked = useRef(0);
  const refresh = useCallback(async () => {
    asked.current += 1;
    const asking = asked.current;
    try {
      const data = await api.call('sync.connection.get');
      if (asking === asked.current) setState({ data });
    } catch (error) {
      if (asking === asked.current) setState((previous) => ({ ...previous, error: toDeskError(error) }));
    }
  }, [api]);
  useEffect(() => void refresh(), [refresh]);
  useDeskEvent('mirror-changed', (event) => {
    if (event.collections.includes('metadata')) void refresh();
  });
  const shownRemote = useRef<string | null>(null);
  useDeskEvent('status', (event) => {
    if (event.status.remote === shownRemote.current && !state.error) return;
    shownRemote.current = event.status.remote;
    void refresh();
  });
  // One value per answer: every screen that reads the connection renders again only when it changed.
  const shared = useMemo(() => ({ data: state.data, error: state.error, refresh }), [state, refresh]);
  return <ConnectionContext.Provider value={shared}>{children}</ConnectionContext.Provider>;
}

/** The desk's connection (see `ConnectionProvider`); `refresh` after changing it. */
export function useConnection(): SharedConnection {
  const connection = useContext(ConnectionContext);
  if (!connection) throw new Error('useConnection needs a ConnectionProvider above it (see App).');
  return connection;
}

/**
 * Whether this desk runs its shelter itself (standalone), for empty states that say what to do here; undefined
 * until the connection has loaded (false when it could not be read: the connected desk's words then).
 */
export function useStandalone(): boolean | undefined {
  const connection = useConnection();
  if (connection.data) return connection.data.mode === 'standalone';
  return connection.error ? false : undefined;
}

/** Whether this desk syncs with a shelter server (its connection's mode is `remote`); undefined until loaded. */
export function useConnected(): boolean | undefined {
  const connection = useConnection();
  return connection.data ? connection.data.mode === 'remote' : undefined;
}

/** Whether this desk is not set up yet: neither connected to a server nor running the shelter (undefined until loaded). */
export function useNotSetUp(): boolean | undefined {
  const connection = useConnection();
  return connection.data ? connection.data.mode === 'none' : undefined;
}
