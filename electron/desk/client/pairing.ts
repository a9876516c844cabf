import { request } from 'undici';
import { z } from 'zod';
import { normalizeBaseUrl } from './api-client';
import { ApiError, describeErrorBody } from './api-error';
import { isNetworkError } from './exchange';
import { CertificateMismatchError, pinnedAgent } from './pinned-connect';

const pairedSchema = z.object({ key: z.string().min(8), key_id: z.string(), name: z.string() });

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

/**
 * Exchanges a pairing code for a write key of this desk's own, over a TLS connection pinned to the code's
 * fingerprint: a server with any other certificate is refused before anything is sent.
 * @throws ApiError with a message for people: certificate mismatch, code used or expired, shelter unreachable.
 */
export async function pairWithShelter(pairing: PairingRequest): Promise<{ key: string; name: string }> {
  const baseUrl = normalizeBaseUrl(pairing.remote);
  const agent = pinnedAgent(pairing.fingerprint, {
    connectTimeoutMs: 10_000,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  try {
    const response = await request(`${baseUrl}/api/pairing`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'user-agent': 'ShelterDesk' },
      body: JSON.stringify({ secret: pairing.secret, desk_name: pairing.deskName }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.body.text();
    if (response.statusCode === 201) {
      const parsed = pairedSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { key: parsed.data.key, name: parsed.data.name };
      throw new ApiError({
        kind: 'invalid-response',
        message: 'The shelter’s answer to pairing was not readable.',
      });
    }
    const described = describeErrorBody(text);
    throw new ApiError({
      kind: 'rejected',
      status: response.statusCode,
      code: described.code,
      requestId: described.requestId,
      message:
        described.code?.startsWith('pairing_code_') === true
          ? `${described.message ?? 'The code was refused.'} Ask the shelter desk for a new code (Keys and sharing → Make a new code).`
          : `The shelter refused to pair (${response.statusCode}${described.message ? `: ${described.message}` : ''}).`,
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    let cause: unknown = error;
    for (let depth = 0; depth < 4 && cause; depth += 1) {
      if (cause instanceof CertificateMismatchError) {
        throw new ApiError({ kind: 'needs-auth', code: 'certificate_mismatch', message: cause.message });
      }
      cause = (cause as { cause?: unknown }).cause;
    }
    if (isNetworkError(error) || error instanceof DOMException) {
      throw new ApiError({
        kind: 'unreachable',
        message: `Cannot reach the shelter at ${baseUrl}. Check that both desks are on the same network and that sharing is on.`,
        cause: error,
      });
    }
    throw error;
  } finally {
    await agent.close();
  }
}
