import { describe, expect, it } from 'vitest';
import type { OutboxConflict } from '../../../shared/desk-api';
import { conflictRows } from './conflict-rows';

const conflict = (field: string, localValue: unknown, serverValue: unknown, baseValue: unknown, id = 1) =>
  ({
    id,
    entityType: 'pet',
    entityId: 'p1',
    recordName: 'Hopper',
    field,
    localValue,
    serverValue,
    baseValue,
  }) as unknown as OutboxConflict;

describe('conflictRows', () => {
  it('names fields as the forms do', () => {
    const rows = conflictRows(
      [conflict('custom_id', 'RAR-1', 'RAR-2', null), conflict('status_change_notes', 'a', 'b', null, 2)],
      {},
    );
    expect(rows.map((row) => row.label)).toEqual(['Shelter id', 'Status notes']);
  });

  it("gives each of the shelter's own fields that differs a line of its own, under its label", () => {
    const rows = conflictRows(
      [
        conflict(
          'custom_field_data',
          { kennel: 'B2', last_vaccination: '2026-07-15', intake_location: 'Main Street' },
          { kennel: 'A2', last_vaccination: '2026-07-15', intake_location: 'Main Street', foster_notes: 'x' },
          { kennel: 'Cattery 1', last_vaccination: '2026-07-15', intake_location: 'Main Street' },
        ),
      ],
      { kennel: 'Kennel' },
    );
    expect(rows).toEqual([
      expect.objectContaining({ label: 'Kennel', local: 'B2', server: 'A2', base: 'Cattery 1' }),
      expect.objectContaining({ label: 'Foster notes', local: undefined, server: 'x', base: undefined }),
    ]);
  });
});
