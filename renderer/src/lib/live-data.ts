import { useMemo, useState } from 'react';
import { useDeskEvent, useDeskQuery } from '../bridge/hooks';

/** Ids of records with an outbox entry the server refused, kept current by `outbox` events. */
export function useNeedsAttention(): ReadonlySet<string> {
  const query = useDeskQuery('outbox.list', { state: 'needs-attention' });
  useDeskEvent('outbox', query.reload);
  return useMemo(() => new Set((query.data?.entries ?? []).map((entry) => entry.entityId)), [query.data]);
}

/** Calls `reload` when a sync or a local write changed records of these collections. */
export function useReloadOnChange(collections: readonly string[], reload: () => void): void {
  useDeskEvent('mirror-changed', (event) => {
    if (event.collections.some((collection) => collections.includes(collection))) reload();
  });
  useDeskEvent('outbox', (event) => {
    const types = event.changed.map((change) => (change.entityType === 'pet' ? 'pets' : 'people'));
    if (types.length === 0 || types.some((type) => collections.includes(type))) reload();
  });
}

/**
 * The current id of a record created on this desk: its local id until the server accepts it, then the server's id.
 * The outbox event of an accepted create names the server id just before the local one.
 */
export function useFollowedId(entityType: 'pet' | 'person', id: string): string {
  const [current, setCurrent] = useState(id);
  useDeskEvent('outbox', (event) => {
    const at = event.changed.findIndex((change) => change.entityType === entityType && change.id === current);
    const previous = at > 0 ? event.changed[at - 1] : undefined;
    if (previous?.entityType === entityType && !previous.id.startsWith('local-')) setCurrent(previous.id);
  });
  return current;
}
