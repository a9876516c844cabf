import { describe, expect, it } from 'vitest';
import type { ApiKeySummary } from '../../../shared/desk-api';
import { othersByLastUse } from './keys-in-use';

const key = (name: string, lastUsedAt: string | null, more: Partial<ApiKeySummary> = {}): ApiKeySummary => ({
  id: name,
  name,
  kind: 'write',
  prefix: 'sd_w_ab',
  createdAt: '2026-11-01T09:00:00.000Z',
  lastUsedAt,
  revokedAt: null,
  thisDesk: false,
  ...more,
});

describe('othersByLastUse', () => {
  it('lists the keys other desks use, the one used last first and those never used last', () => {
    const keys = [
      key('This desk', '2026-12-02T10:00:00.000Z', { thisDesk: true }),
      key('Desk: Front office', '2026-12-02T08:15:00.000Z'),
      key('Website', null, { kind: 'read' }),
      key('Desk: Adoption table', '2026-12-02T09:59:00.000Z'),
      key('Desk: Old laptop', '2026-11-20T09:00:00.000Z', { revokedAt: '2026-11-21T09:00:00.000Z' }),
    ];
    expect(othersByLastUse(keys).map((each) => each.name)).toEqual([
      'Desk: Adoption table',
      'Desk: Front office',
      'Website',
    ]);
  });
});
