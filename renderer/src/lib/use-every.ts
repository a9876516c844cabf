import { useEffect, useRef } from 'react';

/**
 * Calls `refresh` every `ms` while `enabled` and the page is shown (a hidden tab or a minimised window asks
 * nothing), and at once when the page is shown again.
 */
export function useEvery(ms: number, refresh: () => void, enabled = true): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!enabled) return;
    const tick = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [ms, enabled]);
}
