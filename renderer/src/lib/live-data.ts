import { useMemo, useRef } from 'react';
import type { DeskInput, DeskMethodName, DeskOutput, OutboxEntry } from '../../../shared/desk-api';
import { type DeskQuery, useDeskEvent, useDeskQuery } from '../bridge/hooks';
import { listFilling } from './sync-progress';

/** Ids of records with an outbox entry the server refused, kept current by `outbox` events. */
export function useNeedsAttention(): ReadonlySet<string> {
  const refused = useRefusedEntries();
  return useMemo(() => new Set(refused.keys()), [refused]);
}

/** The outbox entries the server refused, by the id of the record each changes, kept current by `outbox` events. */
export function useRefusedEntries(): ReadonlyMap<string, readonly OutboxEntry[]> {
  const query = useDeskQuery('outbox.list', { state: 'needs-attention' });
  useDeskEvent('outbox', query.reload);
  return useMemo(() => {
    const byRecord = new Map<string, OutboxEntry[]>();
    for (const entry of query.data?.entries ?? []) {
      byRecord.set(entry.entityId, [...(byRecord.get(entry.entityId) ?? []), entry]);
    }
    return byRecord;
  }, [query.data]);
}

/**
 * A read of the shelter's metadata (custom fields, contracts, fees, statuses), loaded again whenever the desk's copy
 * of it changes: a screen opened before a sync brought a field or a contract shows it once it arrives.
 */
export function useMetadataQuery<M extends DeskMethodName>(
  method: M,
  input?: DeskInput<M>,
): DeskQuery<DeskOutput<M>> {
  const query = useDeskQuery(method, input);
  useReloadOnChange(['metadata'], query.reload);
  return query;
}

/**
 * Calls `reload` when a sync or a local write changed records of these collections, and when a first sync has read
 * the whole of one of their lists (its filling ends): those rows are all in the mirror then, while the sync goes on
 * (the list's search index, the next lists) before it says what changed. A screen opened while the mirror was empty
 * would say "none yet" meanwhile.
 */
export function useReloadOnChange(collections: readonly string[], reload: () => void): void {
  useDeskEvent('mirror-changed', (event) => {
    if (event.collections.some((collection) => collections.includes(collection))) reload();
  });
  const filling = useRef<string | undefined>(undefined);
  useDeskEvent('status', ({ status }) => {
    const now = listFilling(status);
    const filled = filling.current;
    filling.current = now;
    if (filled !== undefined && filled !== now && collections.includes(filled)) reload();
  });
  useDeskEvent('outbox', (event) => {
    const types = event.changed.map((change) => (change.entityType === 'pet' ? 'pets' : 'people'));
    if (types.length === 0 || types.some((type) => collections.includes(type))) reload();
  });
}
