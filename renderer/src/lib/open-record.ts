import { useEffect, useRef } from 'react';

/**
 * Asks a list screen to open one record's drawer (from the Ctrl+K search, or a link in another record), or People to
 * open a sign-up (`sign-up`: from Ctrl+K; with an application for a pet, the pet's id, from the pet's page). The
 * request waits until the screen is shown: `navigate` first, then the screen takes it when it mounts (or at once when
 * it is already on screen).
 */
export type RecordKind = 'pet' | 'person' | 'sign-up';
export interface OpenRequest {
  kind: RecordKind;
  /** The record; for a sign-up, the pet it applies for ('' for none). */
  id: string;
  /** For people: which tab the person is on; for a sign-up, who signs up. */
  personType?: 'adopter' | 'foster' | 'volunteer' | 'surrender';
}

let pending: OpenRequest | undefined;
const listeners = new Set<() => void>();

export function requestOpen(request: OpenRequest): void {
  pending = request;
  for (const listener of listeners) listener();
}

/** Calls `open` with every request of `kind`, including one made just before the screen mounted. */
export function useOpenRequests(kind: RecordKind, open: (request: OpenRequest) => void): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    const take = () => {
      if (pending?.kind !== kind) return;
      const request = pending;
      pending = undefined;
      latest.current(request);
    };
    take();
    listeners.add(take);
    return () => {
      listeners.delete(take);
    };
  }, [kind]);
}
