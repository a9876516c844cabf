import { z } from 'zod';
import { parseBody, type Route } from '../http/route';

const pairingRequestSchema = z.strictObject({
  /** The one-time secret from the connection code. */
  secret: z.string().trim().min(8).max(200),
  /** The desk's name (from its settings, or its host name): the new key is named after it. */
  desk_name: z.string().trim().min(1).max(80),
});

/**
 * POST /api/pairing (a Shelter Desk extension): a desk exchanges the one-time secret of a connection code for a
 * write key of its own. No key is needed (the desk has none yet); the code works once and for 15 minutes, and
 * the desk sends it only over TLS to the certificate the code names.
 */
export const pairingRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/pairing',
    endpoint: 'POST /api/pairing',
    access: 'public',
    write: { idempotent: false },
    handle({ app, body }) {
      const request = parseBody(pairingRequestSchema, body ?? {});
      const created = app.pairing.redeem(request.secret, request.desk_name);
      return {
        status: 201,
        body: JSON.stringify({ key: created.key, key_id: created.id, name: created.name }),
      };
    },
  },
];

/** GET /api/changes (a Shelter Desk extension): a server-sent event stream saying "something changed". */
export const changeStreamRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/changes',
    endpoint: 'GET /api/changes',
    access: 'read',
    stream: true,
    handle() {
      throw new Error('The change stream is answered by the change feed.');
    },
  },
];
