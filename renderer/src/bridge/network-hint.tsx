import { useEffect } from 'react';
import { WATCH_LEASE_MS } from '../../../shared/desk-api/channels';
import { useDesk } from './hooks';

/** This window's name in `sync.watch`: each window counts on its own (getRandomValues: any page, secure or not). */
const WATCHER = Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) =>
  byte.toString(16).padStart(2, '0'),
).join('');

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
    // follows it within seconds even with nothing to send. The window says so again well within its lease, so a
    // window closed without a word (or crashed) stops counting once the lease runs out.
    const tell = (visible: boolean) => {
      desk.call('sync.watch', { visible, watcher: WATCHER }).catch(() => undefined);
    };
    const watch = () => tell(document.visibilityState === 'visible');
    const renew = () => {
      if (document.visibilityState === 'visible') tell(true);
    };
    const leave = () => tell(false);
    watch();
    const renewal = setInterval(renew, WATCH_LEASE_MS / 3);
    window.addEventListener('online', hint);
    window.addEventListener('offline', hint);
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', watch);
    return () => {
      clearInterval(renewal);
      leave();
      window.removeEventListener('online', hint);
      window.removeEventListener('offline', hint);
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', watch);
    };
  }, [desk]);
}
