import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DeskError, DeskInput, DeskOutput } from '../../../shared/desk-api';
import { DeskCallError } from '../../../shared/desk-api/desk-call-error';
import { peekEarlyAnswer, takeEarly } from '../bridge/early-calls';
import { useDesk } from '../bridge/hooks';

type ListMethod = 'mirror.pets.list' | 'mirror.people.list';
type Item<M extends ListMethod> = DeskOutput<M>['items'][number];
type Query<M extends ListMethod> = Omit<NonNullable<DeskInput<M>>, 'limit' | 'offset'>;

/** Rows fetched per request: a screenful and a half of a tall window. */
export const LIST_PAGE_SIZE = 60;

export interface ListPages<T> {
  /** Matching records (all pages); undefined until a first page arrives (the previous query's until this one's). */
  total: number | undefined;
  error: DeskError | undefined;
  /** True while a request for the current query is under way. */
  loading: boolean;
  /** True once the rows on show are the current query's (not the previous query's, kept meanwhile). */
  current: boolean;
  /** The record at a row index, or undefined while its page loads. */
  itemAt(index: number): T | undefined;
  /** Asks for the pages covering rows `start`..`end` (inclusive); the ones already here are not asked again. */
  request(start: number, end: number): void;
  /** Fetches the pages on screen again (the data changed); the old rows stay until the new ones arrive. */
  reload(): void;
}

/**
 * A list of any length read page by page as rows come into view (for a virtualized list). Answers to an older
 * query are dropped, so typing fast never shows stale results.
 */
export function useListPages<M extends ListMethod>(method: M, query: Query<M>): ListPages<Item<M>> {
  const api = useDesk();
  const key = JSON.stringify(query);
  // The first page a new tab's screen shows may have been answered already, before React started (early-calls).
  const [answered] = useState(() =>
    peekEarlyAnswer(method, { ...query, limit: LIST_PAGE_SIZE, offset: 0 } as DeskInput<M>),
  );
  const [state, setState] = useState<{
    key: string;
    total?: number;
    pages: ReadonlyMap<number, Item<M>[]>;
    error?: DeskError;
    loading: boolean;
  }>(() =>
    answered
      ? { key, total: answered.total, pages: new Map([[0, answered.items as Item<M>[]]]), loading: false }
      : { key, pages: new Map(), loading: true },
  );
  const answeredKey = useRef(answered ? key : undefined);
  const inFlight = useRef(new Set<string>());
  const current = useRef(key);
  current.current = key;
  const queryRef = useRef(query);
  queryRef.current = query;

  const fetchPage = useCallback(
    (page: number, forKey: string, first = false) => {
      const flightKey = `${forKey}#${page}`;
      if (inFlight.current.has(flightKey)) return;
      inFlight.current.add(flightKey);
      const call = api.call as (name: M, input: DeskInput<M>) => Promise<DeskOutput<M>>;
      const input = {
        ...queryRef.current,
        limit: LIST_PAGE_SIZE,
        offset: page * LIST_PAGE_SIZE,
      } as DeskInput<M>;
      // The first page a screen asks for when it mounts may have been asked already, before React started.
      ((first ? takeEarly(method, input) : undefined) ?? call(method, input)).then(
        (result) => {
          inFlight.current.delete(flightKey);
          if (current.current !== forKey) return;
          setState((previous) => {
            const pages = new Map(previous.key === forKey ? previous.pages : []);
            pages.set(page, result.items as Item<M>[]);
            return { key: forKey, total: result.total, pages, loading: inFlight.current.size > 0 };
          });
        },
        (error: unknown) => {
          inFlight.current.delete(flightKey);
          if (current.current !== forKey) return;
          const deskError =
            error instanceof DeskCallError
              ? error.toDeskError()
              : { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
          setState((previous) => ({ ...previous, error: deskError, loading: false }));
        },
      );
    },
    [api, method],
  );

  useEffect(() => {
    if (answeredKey.current === key) {
      // Shown from the first render: taken now, so no later screen is given it.
      takeEarly(method, { ...queryRef.current, limit: LIST_PAGE_SIZE, offset: 0 } as DeskInput<M>);
      return;
    }
    answeredKey.current = undefined;
    setState((previous) => ({ ...previous, loading: true }));
    fetchPage(0, key, true);
  }, [key, fetchPage, method]);

  // Until the first page of a new query arrives, the previous results stay on screen (no flash of an empty list).
  const pages = state.key === key ? state.pages : undefined;
  const shown = state.pages;
  const request = useCallback(
    (start: number, end: number) => {
      for (let page = Math.floor(start / LIST_PAGE_SIZE); page <= Math.floor(end / LIST_PAGE_SIZE); page++) {
        if (!pages?.has(page)) fetchPage(page, key);
      }
    },
    [pages, fetchPage, key],
  );
  const reload = useCallback(() => {
    const loaded = pages ? [...pages.keys()] : [0];
    for (const page of loaded.length > 0 ? loaded : [0]) {
      inFlight.current.delete(`${key}#${page}`);
      fetchPage(page, key);
    }
  }, [pages, fetchPage, key]);
  const itemAt = useCallback(
    (index: number) => shown.get(Math.floor(index / LIST_PAGE_SIZE))?.[index % LIST_PAGE_SIZE],
    [shown],
  );
  const total = state.total;
  const error = state.key === key ? state.error : undefined;
  const loading = state.loading;
  const isCurrent = state.key === key && state.pages.size > 0;
  // One object while nothing changed, so a memoized list does not re-render its rows for unrelated state.
  return useMemo(
    () => ({ total, error, loading, current: isCurrent, itemAt, request, reload }),
    [total, error, loading, isCurrent, itemAt, request, reload],
  );
}
