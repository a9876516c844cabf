import type { Dashboard } from '../../../../shared/desk-api';
import { computeDashboard } from '../../dashboard';
import { type Mirror, mirrorState } from '../../mirror';
import { localToday } from '../../print';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';

/**
 * `dashboard.get`: the shelter at a glance, from the mirror only, for this computer's calendar date. The figures are
 * kept until the mirror changes (`mirrorState`: this connection's writes or another's commit, such as the CLI writing
 * to the same data folder), so a screen that reloads on every event costs nothing extra.
 */
export function registerDashboardHandlers(
  registry: HandlerTable,
  _context: DeskContext,
  mirror: Mirror,
): void {
  let cached: { key: string; value: Dashboard } | undefined;
  registry.handle('dashboard.get', () => {
    const today = localToday();
    const key = `${mirrorState(mirror.db)}:${today}`;
    if (cached?.key !== key) cached = { key, value: computeDashboard(mirror.db, today) };
    return cached.value;
  });
}
