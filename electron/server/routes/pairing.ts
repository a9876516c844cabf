import { z } from 'zod';
import { parseBody, type Route } from '../http/route';

/** The desk's name (from its settings, or its host name): the new key is named after it. */
const deskName = z.string().trim().min(1).max(80);
const proofText = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

const pairingRequestSchema = z.union([
  z.strictObject({
    /** The one-time secret from the pasted pairing code. */
    secret: z.string().trim().min(8).max(200),
    desk_name: deskName,
  }),
  z.strictObject({
    /** A typed code: the desk's nonce, and its proof that it knows the code (platform/typed-pairing.ts). */
    nonce: proofText,
    proof: proofText,
    desk_name: deskName,
  }),
]);

/**
 * POST /api/pairing (a Shelter Desk extension): a desk exchanges a one-time pairing code for a write key of its
 * own. No key is needed (the desk has none yet); the code works once and for 15 minutes. A pasted code's secret is
 * sent only over TLS to the certificate the code names; a typed code is never sent, only a proof bound to the
 * certificate of this connection, and the answer carries the shelter's proof back (`proof`).
 */
export const pairingRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/pairing',
    endpoint: 'POST /api/pairing',
    access: 'public',
    write: { idempotent: false },
    handle({ app, body, localCertificate, remoteAddress }) {
      const request = parseBody(pairingRequestSchema, body ?? {});
      const created =
        'secret' in request
          ? app.pairing.redeem(request.secret, request.desk_name)
          : app.pairing.redeemTyped(
              request.nonce,
              request.proof,
              request.desk_name,
              localCertificate?.(),
              remoteAddress ?? 'unknown',
            );
      return {
        status: 201,
        body: JSON.stringify({
          key: created.key,
          key_id: created.id,
          name: created.name,
          ...('proof' in created && { proof: created.proof }),
          ...(app.pairing.shelterName().trim() && { shelter_name: app.pairing.shelterName().trim() }),
        }),
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
