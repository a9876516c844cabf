import { useEffect } from 'react';
import { useDesk } from './hooks';

/**
 * Tells the core when the browser sees the network come or go. `navigator.onLine` is only a hint: the core checks
 * reachability with a real request, but without the hint a desk back on Wi-Fi would wait for its offline backoff.
 */
export function useNetworkChangeHint(): void {
  const desk = useDesk();
  useEffect(() => {
    const hint = () => {
      desk.call('sync.networkChanged').catch(() => undefined);
    };
    window.addEventListener('online', hint);
    window.addEventListener('offline', hint);
    return () => {
      window.removeEventListener('online', hint);
      window.removeEventListener('offline', hint);
    };
  }, [desk]);
}
