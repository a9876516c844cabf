import { useEffect } from 'react';
import { useDesk } from './hooks';

/**
 * Tells the core when the window is shown or hidden, and when the browser sees the network come or go. `navigator.onLine` is only a hint: the core checks
 * reachability with a real request, but without the hint a desk back on Wi-Fi would wait for its offline backoff.
 */
export function useNetworkChangeHint(): void {
  const desk = useDesk();
  useEffect(() => {
    const hint = () => {
      desk.call('sync.networkChanged').catch(() => undefined);
    };
    // While the window is visible the core keeps checking that the server can be reached, so the header's status
    // follows it within seconds even with nothing to send.
    const watch = () => {
      desk.call('sync.watch', { visible: document.visibilityState === 'visible' }).catch(() => undefined);
    };
    watch();
    window.addEventListener('online', hint);
    window.addEventListener('offline', hint);
    document.addEventListener('visibilitychange', watch);
    return () => {
      window.removeEventListener('online', hint);
      window.removeEventListener('offline', hint);
      document.removeEventListener('visibilitychange', watch);
    };
  }, [desk]);
}
