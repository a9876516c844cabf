import { computeDashboard } from '../../dashboard';
import type { Mirror } from '../../mirror';
import { localToday } from '../../print';
import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';

/** `dashboard.get`: the shelter at a glance, from the mirror only, for this computer's calendar date. */
export function registerDashboardHandlers(
  registry: HandlerRegistry,
  _context: DeskContext,
  mirror: Mirror,
): void {
  registry.handle('dashboard.get', () => computeDashboard(mirror.db, localToday()));
}
