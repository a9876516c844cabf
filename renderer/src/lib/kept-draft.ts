import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftName } from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';

/** How long after the last change a form's typing is written to the desk. */
const KEEP_AFTER_MS = 300;

/** What a form found kept on the desk when it opened. */
export interface RestoredDraft<T> {
  value: T;
  savedAt: string;
}

/**
 * A form's typing kept on the desk (`drafts.*`), so a reload, a closed window or a crash loses none of it.
 * `restore` asks once for what was kept and hands it to `onRestored` (read with `read`); `keep(value)` writes what is
 * typed a moment after the last change, `keep(null)` forgets it (saved, or cleared).
 */
export function useKeptDraft<T>(name: DraftName, read: (kept: unknown) => T | undefined) {
  const api = useDesk();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef<T | null | undefined>(undefined);
  /** The writes in the order they were made: a clear must not arrive before the put it follows. */
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  const [restored, setRestored] = useState<RestoredDraft<T>>();

  const flush = useCallback(
    (leaving = false) => {
      clearTimeout(timer.current);
      timer.current = undefined;
      const value = latest.current;
      if (value === undefined) return;
      latest.current = undefined;
      const write = () =>
        value === null ? api.call('drafts.clear', { name }) : api.call('drafts.put', { name, value });
      // As the page goes, the last typing leaves at once (a write still under way cannot be waited for); it is the
      // newest, so arriving after that one is right.
      const written = leaving ? write() : writes.current.then(write);
      // A draft that could not be kept leaves the form as it is: the leave question still guards it.
      writes.current = written.catch(() => undefined);
    },
    [api, name],
  );

  const keep = useCallback(
    (value: T | null) => {
      latest.current = value;
      clearTimeout(timer.current);
      if (value === null) flush();
      else timer.current = setTimeout(() => flush(), KEEP_AFTER_MS);
    },
    [flush],
  );

  // Typing of the last moment goes before the page does (a reload, the window closed).
  useEffect(() => {
    const leaving = () => flush(true);
    window.addEventListener('pagehide', leaving);
    return () => {
      window.removeEventListener('pagehide', leaving);
      flush();
    };
  }, [flush]);

  const restore = useCallback(
    async (onRestored: (draft: RestoredDraft<T>) => void) => {
      const kept = await api.call('drafts.get', { name }).catch(() => null);
      const value = kept ? read(kept.value) : undefined;
      if (!kept || value === undefined) return;
      const draft = { value, savedAt: kept.savedAt };
      setRestored(draft);
      onRestored(draft);
    },
    [api, name, read],
  );

  return { keep, restore, restored, dismissRestored: () => setRestored(undefined) };
}
