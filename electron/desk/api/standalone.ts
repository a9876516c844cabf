import type { Logger } from '../../platform/log';
import { startApiServer } from '../../server';
import type { StartStandaloneServer } from '../sync';

/**
 * The standalone shelter: the embedded API server on loopback with the desk's own write key, its database in
 * `<dataDir>/standalone/`. The one adapter between the sync's connection manager and the server, for the app and
 * the CLI alike; with the desk's log, every request it serves is logged with its id.
 */
export function standaloneServer(log?: Logger): StartStandaloneServer {
  return ({ dataDir, port, writeKey }) => startApiServer({ dataDir, port, writeKey, ...(log && { log }) });
}
