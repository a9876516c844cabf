import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-hash-location';
import { formHoldingTyping } from '../components/leave-guard';
import { DEPTH, depthOf } from '../lib/history-depth';

const hashPrefix = /^#?\/?/;
const addressPath = () => `/${window.location.hash.replace(hashPrefix, '')}`;

/** The screen shown: the address's, except while a move away waits for the answer to a form's leave question. */
let shown = addressPath();
const listeners = new Set<() => void>();

function show(path: string): void {
  shown = path;
  for (const listener of listeners) listener();
}

let shownDepth = 0;

/** The current entry's depth; a new entry (a link, `navigate`, the address bar) comes right after the one shown. */
function currentDepth(): number {
  const known = depthOf(window.history.state);
  if (known !== undefined) return known;
  const depth = shownDepth + 1;
  window.history.replaceState({ ...(window.history.state ?? {}), [DEPTH]: depth }, '');
  return depth;
}

/**
 * Every move between screens ends here: links (`#/pets`), wouter's `navigate` (keyboard shortcuts, the search), the
 * address bar, Back and Forward. While a form holds typing the move is undone (back over a new entry, or forward
 * again after Back), so the address and the history stay as they were, and the form asks first; "Leave without
 * saving" then makes the same move again.
 */
function onAddressChange(): void {
  const wanted = addressPath();
  const depth = currentDepth();
  const typing = wanted === shown ? undefined : formHoldingTyping();
  if (!typing) {
    shownDepth = depth;
    if (wanted !== shown) show(wanted);
    return;
  }
  const steps = depth - shownDepth;
  if (steps !== 0) {
    window.history.go(-steps);
    typing.ask(() => window.history.go(steps));
    return;
  }
  // A move that replaced the entry (`navigate(…, { replace: true })`): put the address back the same way.
  const url = new URL(window.location.href);
  url.hash = shown;
  window.history.replaceState(window.history.state, '', url.href);
  typing.ask(() => navigateKeepingDepth(wanted, { replace: true }));
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    shown = addressPath();
    shownDepth = depthOf(window.history.state) ?? 0;
    if (depthOf(window.history.state) === undefined) {
      window.history.replaceState({ ...(window.history.state ?? {}), [DEPTH]: 0 }, '');
    }
    window.addEventListener('hashchange', onAddressChange);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('hashchange', onAddressChange);
  };
}

/** wouter's `navigate`; an entry it replaces keeps its depth. */
function navigateKeepingDepth(to: string, options?: { replace?: boolean; state?: unknown }): void {
  navigate(
    to,
    options?.replace
      ? { ...options, state: { ...((options.state as object | null) ?? {}), [DEPTH]: shownDepth } }
      : options,
  );
}

/** wouter's hash location (`#/pets`), except that leaving a screen asks first while a form on it holds typing. */
export function useGuardedHashLocation(): [string, typeof navigateKeepingDepth] {
  return [
    useSyncExternalStore(
      subscribe,
      () => shown,
      () => '/',
    ),
    navigateKeepingDepth,
  ];
}
useGuardedHashLocation.hrefs = (href: string) => `#${href}`;
