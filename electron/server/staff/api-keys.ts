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
  /** When the key last opened a request (null: never, or not recorded by this server version). */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyListRow {
  id: string;
  label: string;
  access: ApiKeyKind;
  key_prefix: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at?: number | null;
}

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/**
 * API keys: created, authenticated and revoked by the server's key registry (only hashes are stored); the
 * staff list reads the table itself. `last_used_at` is read when the schema has it.
 */
export function apiKeyOperations({ app, sqlite }: StaffContext) {
  const hasLastUsed = () =>
    (sqlite.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('api_keys') as string[]).includes(
      'last_used_at',
    );
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
      return app.keys.authenticate(key)?.id;
    },

    listApiKeys(): ApiKeySummary[] {
      const columns = `id, label, access, key_prefix, created_at, revoked_at${hasLastUsed() ? ', last_used_at' : ''}`;
      const rows = sqlite
        .prepare(`SELECT ${columns} FROM api_keys ORDER BY created_at, id`)
        .all() as KeyListRow[];
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        access: row.access,
        keyPrefix: row.key_prefix,
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: iso(row.last_used_at),
        revokedAt: iso(row.revoked_at),
      }));
    },
  };
}
