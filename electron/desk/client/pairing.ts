import { type Agent, request } from 'undici';
import { z } from 'zod';
import {
  deskProof,
  pairingNonce,
  sameProof,
  shelterProof,
  stretchTypedCode,
} from '../../platform/typed-pairing';
import { normalizeBaseUrl } from './api-client';
import { ApiError, describeErrorBody } from './api-error';
import { isNetworkError } from './exchange';
import { CertificateMismatchError, certificateShownBy, pinnedAgent } from './pinned-connect';

const pairedSchema = z.object({
  key: z.string().min(8),
  key_id: z.string(),
  name: z.string(),
  proof: z.string().optional(),
  shelter_name: z.string().optional(),
});

/** What a pairing gives the desk: its own key, the key's name, and the shelter's name when its desk has one. */
export interface Paired {
  key: string;
  name: string;
  shelterName?: string;
}

const pairedFrom = (answer: z.infer<typeof pairedSchema>): Paired => ({
  key: answer.key,
  name: answer.name,
  ...(answer.shelter_name?.trim() && { shelterName: answer.shelter_name.trim() }),
});

const TIMEOUTS = { connectTimeoutMs: 10_000, headersTimeout: 15_000, bodyTimeout: 15_000 };

export interface PairingRequest {
  /** The shelter's https address from the code. */
  remote: string;
  /** The certificate fingerprint from the code (the only certificate accepted). */
  fingerprint: string;
  /** The one-time secret from the code. */
  secret: string;
  /** This desk's name, which its new key is named after. */
  deskName: string;
}

export interface TypedPairingRequest {
  /** The shelter's https address as typed. */
  remote: string;
  /** The eight letters and digits, normalized (`normalizeTypedCode`). */
  code: string;
  /** This desk's name, which its new key is named after. */
  deskName: string;
}

/**
 * Exchanges a pairing code for a write key of this desk's own, over a TLS connection pinned to the code's
 * fingerprint: a server with any other certificate is refused before anything is sent.
 * @throws ApiError with a message for people: certificate mismatch, code used or expired, shelter unreachable.
 */
export async function pairWithShelter(pairing: PairingRequest): Promise<Paired> {
  const agent = pinnedAgent(pairing.fingerprint, TIMEOUTS);
  try {
    const paired = await postPairing(agent, pairing.remote, {
      secret: pairing.secret,
      desk_name: pairing.deskName,
    });
    return pairedFrom(paired);
  } finally {
    await agent.close();
  }
}

/**
 * Exchanges a typed code for a write key, and learns the certificate to pin from the exchange itself: the desk
 * proves it knows the code for the certificate it is shown, and keeps nothing unless the answer proves the shelter
 * knows it too (platform/typed-pairing.ts). The code itself is never sent.
 * @returns the key and the shelter's certificate fingerprint, to pin from now on.
 * @throws ApiError with a message for people: code refused, an answer that does not prove the code, unreachable.
 */
export async function pairWithTypedCode(
  pairing: TypedPairingRequest,
): Promise<Paired & { fingerprint: string }> {
  const baseUrl = normalizeBaseUrl(pairing.remote);
  const fingerprint = await certificateShownBy(baseUrl, TIMEOUTS.connectTimeoutMs).catch((error: unknown) => {
    throw unreachableOr(error, pairing.remote);
  });
  // Pinned to what the handshake showed: the proof below is for that certificate, and the answer must come from it.
  const agent = pinnedAgent(fingerprint, TIMEOUTS);
  try {
    const stretched = stretchTypedCode(pairing.code, fingerprint);
    const nonce = pairingNonce();
    const paired = await postPairing(agent, pairing.remote, {
      nonce,
      proof: deskProof(stretched, nonce),
      desk_name: pairing.deskName,
    });
    if (!paired.proof || !sameProof(paired.proof, shelterProof(stretched, nonce, paired.key)))
      throw notProven();
    return { ...pairedFrom(paired), fingerprint };
  } finally {
    await agent.close();
  }
}

function notProven(): ApiError {
  return new ApiError({
    kind: 'needs-auth',
    code: 'certificate_mismatch',
    message:
      'The server that answered could not prove it knows the code, so the desk kept nothing. Someone on this ' +
      'network may be trying to listen in. Check the address on the sharing card, or paste the whole pairing code.',
  });
}

function unreachableOr(error: unknown, remote: string): unknown {
  if (error instanceof ApiError) return error;
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause; depth += 1) {
    if (cause instanceof CertificateMismatchError) {
      return new ApiError({ kind: 'needs-auth', code: 'certificate_mismatch', message: cause.message });
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  if (isNetworkError(error) || error instanceof DOMException) {
    return new ApiError({
      kind: 'unreachable',
      message: `Cannot reach the shelter at ${normalizeBaseUrl(remote)}. Check that both desks are on the same network and that sharing is on.`,
      cause: error,
    });
  }
  return error;
}

/** POST /api/pairing and its answer, or an ApiError that says what to do. */
async function postPairing(
  agent: Agent,
  remote: string,
  body: Record<string, string>,
): Promise<z.infer<typeof pairedSchema>> {
  try {
    const response = await request(`${normalizeBaseUrl(remote)}/api/pairing`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'user-agent': 'ShelterDesk' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.body.text();
    if (response.statusCode === 201) {
      const parsed = pairedSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      throw new ApiError({
        kind: 'invalid-response',
        message: 'The shelter’s answer to pairing was not readable.',
      });
    }
    const described = describeErrorBody(text);
    const typed = 'proof' in body;
    throw new ApiError({
      kind: 'rejected',
      status: response.statusCode,
      code: described.code,
      requestId: described.requestId,
      message:
        described.code?.startsWith('pairing_code_') === true
          ? `${described.message ?? 'The code was refused.'} ${typed && described.code !== 'pairing_code_locked' ? 'Check the address and the eight letters and digits against the sharing card, or ask' : 'Ask'} the shelter desk for a new code (Keys and sharing → Make a new code).`
          : typed && response.statusCode === 400
            ? 'This shelter desk does not take typed codes yet (it runs an older version): paste its whole pairing code instead.'
            : `The shelter refused to pair (${response.statusCode}${described.message ? `: ${described.message}` : ''}).`,
    });
  } catch (error) {
    throw unreachableOr(error, remote);
  }
}
