import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';

/** `status.*`: the connection and sync status; changes arrive as `status` events. */
export function registerStatusHandlers(registry: HandlerRegistry, context: DeskContext): void {
  registry.handle('status.get', () => context.status.get());
}
