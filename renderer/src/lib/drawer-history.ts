import { useEffect, useRef, useState } from 'react';
import { DEPTH, depthOf } from './history-depth';

/** The key in a history entry's state naming the drawer it shows (`pet:ID`). */
const DRAWER = 'shelterDeskDrawer';

function drawerOf(state: unknown): string | undefined {
  const drawer = (state as Record<string, unknown> | null)?.[DRAWER];
  return typeof drawer === 'string' ? drawer : undefined;
}

/**
 * A record's drawer in the tab's history, as a page of its own would be (the address stays the screen's): opening it
 * adds an entry, so Back closes it and Forward opens it again; closing it another way takes that entry off. Back
 * goes through `close`, which may ask first (an edit holding typing): kept open, the drawer's entry comes back. A
 * screen shown again by Back onto such an entry opens its drawer again. `kind` tells one screen's drawers from
 * another's; `open` opens the drawer of an id.
 */
export function useDrawerHistory(
  kind: string,
  id: string | null,
  close: () => void,
  open: (id: string) => void,
): void {
  const prefix = `${kind}:`;
  const key = id === null ? null : `${prefix}${id}`;
  const latest = useRef({ key, close, open });
  latest.current = { key, close, open };
  // Counts the moves through the history while the screen is shown: after one, the drawer's entry is checked again.
  const [moves, setMoves] = useState(0);
  /** The drawer entry the screen found when it was shown, which it opens (not one to take off). */
  const found = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    // The screen's own address: a move to another (a link, the address bar, Back to another screen) is the screens'
    // router's to guard, not a drawer's.
    const screen = window.location.hash;
    const onPop = (event: PopStateEvent) => {
      if (window.location.hash !== screen) return;
      const wanted = drawerOf(event.state);
      const { key: shown, close: closeShown, open: openWanted } = latest.current;
      if (wanted === shown) return;
      if (shown !== null) closeShown();
      else if (wanted?.startsWith(prefix)) openWanted(wanted.slice(prefix.length));
      setMoves((count) => count + 1);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [prefix]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` asks for the check again after Back or Forward.
  useEffect(() => {
    const state = window.history.state as Record<string, unknown> | null;
    const current = drawerOf(state);
    if (found.current === undefined) found.current = current?.startsWith(prefix) ? current : null;
    if (key !== null) {
      found.current = null;
      if (current === key) return;
      if (current?.startsWith(prefix)) window.history.replaceState({ ...state, [DRAWER]: key }, '');
      else window.history.pushState({ ...state, [DEPTH]: (depthOf(state) ?? 0) + 1, [DRAWER]: key }, '');
      return;
    }
    if (!current?.startsWith(prefix)) return;
    // Back onto this screen's drawer entry opens that drawer; a drawer closed here takes its entry off.
    if (current === found.current) latest.current.open(current.slice(prefix.length));
    else window.history.back();
  }, [key, prefix, moves]);
}
