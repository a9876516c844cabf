import { z } from 'zod';
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

    /** Revokes a key at once; false when it was unknown or already revoked. */
    revokeApiKey(id: string): boolean {
      return app.keys.revoke(id);
    },

    /** The id of the stored key matching `key` (active only), e.g. to recognise a desk's own key. */
    apiKeyIdOf(key: string): string | undefined {
      app.catchUp();
      return app.keys.authenticate(key)?.id;
    },

    listApiKeys(): ApiKeySummary[] {
      return app.keys.list();
    },
  };
}
