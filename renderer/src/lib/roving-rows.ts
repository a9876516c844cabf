import { type KeyboardEvent, type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/** How far a key moves within `count` rows from `index`. */
const MOVES: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowDown: (index, count) => Math.min(index + 1, count - 1),
  ArrowUp: (index) => Math.max(index - 1, 0),
  PageDown: (index, count) => Math.min(index + 10, count - 1),
  PageUp: (index) => Math.max(index - 10, 0),
  Home: () => 0,
  End: (_, count) => count - 1,
};

export interface RovingRows {
  /** The row that is the list's one Tab stop (tabIndex 0; every other row -1). */
  active: number;
  /** A row got the focus (a click, Tab, the drawer handing it back): it becomes the Tab stop. */
  onRowFocus(index: number): void;
  /** Enter or Space opens the row; arrows, Page Up/Down, Home and End move the focus to another row. */
  onRowKeyDown(index: number, event: KeyboardEvent, open: () => void): void;
}

/**
 * A table of records as one Tab stop (a roving tabindex): Tab reaches the list at the row last used and leaves it
 * with the next Tab, rather than stopping at every row of a hundred. The rows carry `data-row-index`; `reveal`
 * scrolls a row into the page first where only the rows in view are rendered, and the row is focused once it is
 * there (a row still loading, once its record has come).
 */
export function useRovingRows(
  count: number,
  rows: RefObject<HTMLElement | null>,
  reveal?: (index: number) => void,
): RovingRows {
  const [chosen, setChosen] = useState(0);
  const active = chosen < count ? chosen : 0;
  const wanted = useRef<number | null>(null);
  const latest = useRef({ count, reveal });
  latest.current = { count, reveal };

  // After every render: the row asked for is focused as soon as it is in the page, unless the focus went elsewhere
  // meanwhile (the search box, a button).
  useEffect(() => {
    if (wanted.current === null) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body && !rows.current?.contains(focused)) {
      wanted.current = null;
      return;
    }
    const row = rows.current?.querySelector<HTMLElement>(`[data-row-index="${wanted.current}"][tabindex]`);
    if (!row) return;
    wanted.current = null;
    row.focus();
  });

  const onRowFocus = useCallback((index: number) => {
    // A row focused by other means (a click) ends a move still waiting for its row.
    wanted.current = null;
    setChosen(index);
  }, []);
  const onRowKeyDown = useCallback((index: number, event: KeyboardEvent, open: () => void) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
      return;
    }
    const move = MOVES[event.key];
    const { count: rowCount, reveal: scrollTo } = latest.current;
    if (!move || rowCount === 0) return;
    event.preventDefault();
    // A key pressed before the last move's row took the focus (End, then at once Arrow Up) moves on from that row,
    // not from the row still focused.
    const from = wanted.current ?? index;
    const next = move(from, rowCount);
    if (next === from) return;
    setChosen(next);
    wanted.current = next;
    scrollTo?.(next);
  }, []);

  return { active, onRowFocus, onRowKeyDown };
}
