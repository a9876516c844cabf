import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-hash-location';
import { formHoldingTyping } from '../components/leave-guard';

const hashPrefix = /^#?\/?/;
const addressPath = () => `/${window.location.hash.replace(hashPrefix, '')}`;

/** The screen shown: the address's, except while a move away waits for the answer to a form's leave question. */
let shown = addressPath();
const listeners = new Set<() => void>();

function show(path: string): void {
  shown = path;
  for (const listener of listeners) listener();
}

/**
 * Every move between screens ends here: links (`#/pets`), wouter's `navigate` (keyboard shortcuts, the search), the
 * address bar, Back and Forward. While a form holds typing the address goes back to the screen shown and its form
 * asks first; "Leave without saving" then moves on.
 */
function onAddressChange(): void {
  const wanted = addressPath();
  if (wanted === shown) return;
  const typing = formHoldingTyping();
  if (!typing) {
    show(wanted);
    return;
  }
  setAddress(shown, 'replaceState');
  typing.ask(() => {
    setAddress(wanted, 'pushState');
    show(wanted);
  });
}

/** Sets the address without a `hashchange`. */
function setAddress(path: string, how: 'pushState' | 'replaceState'): void {
  const url = new URL(window.location.href);
  url.hash = path;
  window.history[how](how === 'replaceState' ? window.history.state : null, '', url.href);
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    shown = addressPath();
    window.addEventListener('hashchange', onAddressChange);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('hashchange', onAddressChange);
  };
}

/** wouter's hash location (`#/pets`), except that leaving a screen asks first while a form on it holds typing. */
export function useGuardedHashLocation(): [string, typeof navigate] {
  return [
    useSyncExternalStore(
      subscribe,
      () => shown,
      () => '/',
    ),
    navigate,
  ];
}
useGuardedHashLocation.hrefs = (href: string) => `#${href}`;
