import { describe, expect, it } from 'vitest';
import { CarryConflictError, type ClashedRecord } from '../outbox';
import { carryClashProblem } from './sessions';

const clash = (table: string, record: Partial<ClashedRecord>) =>
  carryClashProblem(
    new CarryConflictError(table, '["raw-key"]', {
      type: 'pet',
      id: 'pet-1',
      name: undefined,
      field: undefined,
      ...record,
    }),
  );

describe('a carry clash in words', () => {
  it('names the record and what clashed, says what to do, and keeps the id as the detail', () => {
    expect(clash('local_edit', { type: 'person', id: 'person-7', name: 'Dana Doe' })).toEqual({
      kind: 'clash',
      message: expect.stringMatching(
        /^This connection already has its own unsent edit of the person “Dana Doe”\. Nothing was moved.*shown while the desk has no connection\. .*choose No connection under Settings, discard the edit made with no connection under Sync \(make it again here if it is still needed\), then connect again\.$/,
      ),
      detail: 'Person id person-7',
    });
    expect(clash('outbox_conflict', { name: 'Rex', field: 'microchip_id' }).message).toContain(
      'its own conflict notice about the microchip id of the pet “Rex”.',
    );
    expect(clash('pet', { name: 'Rex' }).message).toContain(
      'its own pet “Rex” under the same id. Nothing was moved',
    );
    expect(clash('pet', { name: 'Rex' }).message).toContain(
      'discard the one entered with no connection under Sync (enter it again here if it is still needed)',
    );
  });

  it('falls back to the id when neither mirror names the record, and never shows the raw key', () => {
    const { message, detail } = clash('pet', {});
    expect(message).toContain('its own pet pet-1 under the same id');
    expect(detail).toBe('Pet id pet-1');
    expect(message).not.toContain('raw-key');
  });
});
