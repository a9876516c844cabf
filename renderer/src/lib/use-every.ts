import { useEffect, useRef, useState } from 'react';
import type { DeskMethodName, DeskOutput } from '../../../shared/desk-api';
import { type DeskQuery, useDesk, useDeskQuery } from '../bridge/hooks';

/**
 * Calls `refresh` every `ms` while `enabled` and the page is shown (a hidden tab or a minimised window asks
 * nothing), and at once when the page is shown again.
 */
export function useEvery(ms: number, refresh: () => void, enabled = true): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!enabled) return;
    const tick = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [ms, enabled]);
}

/**
 * A query (no input) that is also asked again every `ms` while shown (see `useEvery`), quietly: a poll that fails
 * keeps what is shown, and a poll sent before the last `reload` answered (say, before a change the person made) is
 * not shown over it.
 */
export function usePolledQuery<M extends DeskMethodName>(method: M, ms: number): DeskQuery<DeskOutput<M>> {
  const api = useDesk();
  const query = useDeskQuery(method);
  const [polled, setPolled] = useState<DeskOutput<M>>();
  const answered = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer of the query starts a new round of polls.
  useEffect(() => {
    answered.current += 1;
    setPolled(undefined);
  }, [query.data]);
  useEvery(ms, () => {
    const round = answered.current;
    const call = api.call as (name: M) => Promise<DeskOutput<M>>;
    call(method).then(
      (data) => round === answered.current && setPolled(data),
      () => undefined,
    );
  });
  return { ...query, data: polled ?? query.data };
}
