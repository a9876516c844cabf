import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type {
  DeskApi,
  DeskError,
  DeskEventOf,
  DeskEventType,
  DeskInput,
  DeskMethodName,
  DeskOutput,
  DeskStatus,
} from '../../../shared/desk-api';
import { DeskCallError } from '../../../shared/desk-api/desk-call-error';
import { desk } from './desk';

const DeskApiContext = createContext<DeskApi>(desk);

/** Gives a subtree another DeskApi (tests, previews). The app uses the real bridge by default. */
export function DeskProvider({ api, children }: { api: DeskApi; children: ReactNode }) {
  return <DeskApiContext.Provider value={api}>{children}</DeskApiContext.Provider>;
}

export function useDesk(): DeskApi {
  return useContext(DeskApiContext);
}

export interface DeskQuery<T> {
  data: T | undefined;
  error: DeskError | undefined;
  loading: boolean;
  /** A `reload` of the same input is on its way; `data` and `error` still answer that input meanwhile. */
  refreshing: boolean;
  reload(): void;
}

function asDeskError(error: unknown): DeskError {
  if (error instanceof DeskCallError) return error.toDeskError();
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** Calls a read method when the component mounts (and when the input changes); `reload` calls again. */
export function useDeskQuery<M extends DeskMethodName>(
  method: M,
  input?: DeskInput<M>,
): DeskQuery<DeskOutput<M>> {
  const api = useDesk();
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(input ?? null);
  // `answers` is the input the data or error belongs to: until the answer for the current input arrives the query
  // is loading, from the very render in which the input changed (the effect below runs only after it).
  const [state, setState] = useState<{
    data?: DeskOutput<M>;
    error?: DeskError;
    loading: boolean;
    answers?: string;
  }>({ loading: true });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `input`; `generation` forces a reload.
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    const call = api.call as (name: M, value?: DeskInput<M>) => Promise<DeskOutput<M>>;
    call(method, input).then(
      (data) => current && setState({ data, loading: false, answers: key }),
      (error: unknown) => current && setState({ error: asDeskError(error), loading: false, answers: key }),
    );
    return () => {
      current = false;
    };
  }, [api, method, key, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const answersInput = state.answers === key;
  return {
    data: state.data,
    error: state.error,
    loading: state.loading || !answersInput,
    refreshing: state.loading && answersInput,
    reload,
  };
}

/** Runs `listener` for every core event of one type while the component is mounted. */
export function useDeskEvent<T extends DeskEventType>(
  type: T,
  listener: (event: DeskEventOf<T>) => void,
): void {
  const api = useDesk();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(
    () =>
      api.subscribe((event) => {
        if (event.type === type) latest.current(event as DeskEventOf<T>);
      }),
    [api, type],
  );
}

/** The connection and sync status: the first answer of `status.get`, then every `status` event. */
export function useDeskStatus(): { status: DeskStatus | undefined; error: DeskError | undefined } {
  const query = useDeskQuery('status.get');
  const [pushed, setPushed] = useState<DeskStatus>();
  useDeskEvent('status', (event) => setPushed(event.status));
  return { status: pushed ?? query.data, error: query.error };
}
