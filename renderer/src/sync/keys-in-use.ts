import type { ApiKeySummary } from '../../../shared/desk-api';

/** The keys in use other than this desk's own, the one used last first; keys never used come last. */
export function othersByLastUse(keys: readonly ApiKeySummary[]): ApiKeySummary[] {
  return keys
    .filter((key) => !key.thisDesk && !key.revokedAt)
    .sort((a, b) => (b.lastUsedAt ?? '').localeCompare(a.lastUsedAt ?? ''));
}
