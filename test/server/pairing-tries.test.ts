import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskProof, pairingNonce, stretchTypedCode } from '../../electron/platform/typed-pairing';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { TYPED_CODE_TRIES } from '../../electron/server/domain/pairing-store';
import {
  generateShelterCertificate,
  type ShelterCertificate,
} from '../../electron/server/tls/shelter-certificate';
import { READ_KEY, tempDataDir, WRITE_KEY } from './harness';

/** A desk typing a code from a chosen loopback address (Linux routes all of 127.0.0.0/8 to lo), over the TLS port. */
function typingDesk(localAddress: string, identity: ShelterCertificate) {
  // The certificate is the shelter's own (self-signed): the proof is bound to its fingerprint, as a desk's is.
  const dispatcher = new Agent({ localAddress, connect: { rejectUnauthorized: false } });
  return {
    async pair(apiUrl: string, code: string) {
      const nonce = pairingNonce();
      const proof = deskProof(stretchTypedCode(code, identity.fingerprint), nonce);
      const response = await request(`${apiUrl}/pairing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nonce, proof, desk_name: `Desk at ${localAddress}` }),
        dispatcher,
      });
      const body = (await response.body.json()) as { code?: string; error?: string; name?: string };
      return { status: response.statusCode, body };
    },
    close: () => dispatcher.close(),
  };
}

describe('typed pairing codes counted per computer', () => {
  let server: RunningApiServer;
  let identity: ShelterCertificate;
  let stranger: ReturnType<typeof typingDesk>;
  let desk: ReturnType<typeof typingDesk>;

  beforeAll(async () => {
    identity = await generateShelterCertificate();
    server = await startApiServer({
      dataDir: tempDataDir('shelter-pairing-tries-'),
      writeKey: WRITE_KEY,
      readKey: READ_KEY,
      tls: { cert: identity.cert, key: identity.key },
    });
    stranger = typingDesk('127.0.0.2', identity);
    desk = typingDesk('127.0.0.1', identity);
  });
  afterAll(async () => {
    await stranger.close();
    await desk.close();
    await server.close();
  });

  it(`${TYPED_CODE_TRIES} wrong codes from one computer lock that computer out, not the code: another pairs with it`, async () => {
    const { typedCode, secret } = server.staff.createPairingCode(identity.fingerprint);
    const wrong = `${typedCode.startsWith('2') ? '3' : '2'}${typedCode.slice(1)}`;
    for (let attempt = 0; attempt < TYPED_CODE_TRIES; attempt += 1) {
      const refused = await stranger.pair(server.apiUrl, wrong);
      expect(refused).toMatchObject({ status: 401, body: { code: 'pairing_code_invalid' } });
    }
    // Out of tries, the stranger is refused even the right letters, and told so.
    const locked = await stranger.pair(server.apiUrl, typedCode);
    expect(locked).toMatchObject({ status: 401, body: { code: 'pairing_code_locked' } });
    expect(locked.body.error).toMatch(new RegExp(`This computer typed ${TYPED_CODE_TRIES} wrong codes`));

    // The code on the card is still open, and the desk at another address pairs with it.
    expect(server.staff.pairingCodeOpen(secret)).toBe(true);
    const paired = await desk.pair(server.apiUrl, typedCode);
    expect(paired).toMatchObject({ status: 201, body: { name: 'Desk: Desk at 127.0.0.1' } });
  });
});
