import { z } from 'zod';
import type { Revocation } from '../domain/api-key-store';
import type { StaffContext } from './staff-context';

export const API_KEY_KINDS = ['read', 'write'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export interface ApiKeySummary {
  id: string;
  label: string;
  access: ApiKeyKind;
  keyPrefix: string;
  createdAt: string;
  /** When the key last opened a request, to the minute (null: never). */
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The key a standalone desk uses for its own shelter: listed as such, never revoked. */
  deskOwn: boolean;
}

/**
 * API keys: created, authenticated, listed and revoked by the server's key registry (only salted hashes are
 * stored; the time of last use is noted to the minute).
 */
export function apiKeyOperations({ app }: StaffContext) {
  return {
    /** Creates an API key; the plaintext is returned here once and never stored. */
    createApiKey(access: ApiKeyKind, label = `${access} key`): { id: string; key: string } {
      z.enum(API_KEY_KINDS).parse(access);
      return app.keys.create(access, z.string().trim().min(1).max(80).parse(label));
    },

    /** Revokes a key at once, unless it is unknown, already revoked, or a desk's own key. */
    revokeApiKey(id: string): Revocation {
      return app.keys.revoke(id);
    },

    listApiKeys(): ApiKeySummary[] {
      return app.keys.list();
    },

    /**
     * A one-time pairing code for a second desk (LAN sharing): works once, for 15 minutes, and is exchanged by
     * that desk (POST /api/pairing) for a write key named after it. Its secret, and its typed form for desks shown
     * the certificate `fingerprint`, are returned here once; neither is stored as it is.
     */
    createPairingCode(fingerprint: string): { secret: string; typedCode: string; expiresAt: string } {
      const created = app.pairing.create(fingerprint);
      return {
        secret: created.secret,
        typedCode: created.typedCode,
        expiresAt: new Date(created.expiresAt).toISOString(),
      };
    },

    /** Whether a pairing code can still be used (not used, expired or cancelled). */
    pairingCodeOpen(secret: string): boolean {
      app.catchUp();
      return app.pairing.isOpen(secret);
    },

    /** Ends a pairing code that was not used. */
    cancelPairingCode(secret: string): void {
      app.pairing.cancel(secret);
    },
  };
}
