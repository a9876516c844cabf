import { DeskCallError } from '../../../../shared/desk-api';
import type { ConnectionManager } from '../../sync';
import type { HandlerRegistry } from '../handler-registry';
import type { DeskSessions } from '../sessions';

/**
 * `sync.connection.*`: the connection settings (the key stays in the secret store). Setting another connection
 * switches the desk's session: the old connection's mirror and waiting changes stay in its folder for when the desk
 * switches back.
 */
export function registerConnectionHandlers(
  registry: HandlerRegistry,
  connections: ConnectionManager,
  sessions: DeskSessions,
): void {
  registry.handle('sync.connection.get', () => connections.summary());
  registry.handle('sync.connection.set', async (input) => {
    try {
      await sessions.setConnection(input);
    } catch (error) {
      if (error instanceof DeskCallError) throw error;
      throw new DeskCallError({ code: 'invalid_input', message: (error as Error).message });
    }
    return connections.summary();
  });
}
