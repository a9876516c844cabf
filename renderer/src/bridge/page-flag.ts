import { useSyncExternalStore } from 'react';

/** A yes/no the whole page shares (kept by its module), that screens follow with `usePageFlag`. */
export interface PageFlag {
  get(): boolean;
  set(value: boolean): void;
  subscribe(listener: () => void): () => void;
}

export function pageFlag(): PageFlag {
  let value = false;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (value === next) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function usePageFlag(flag: PageFlag): boolean {
  return useSyncExternalStore(flag.subscribe, flag.get);
}
