import { z } from 'zod';
import { CONTRACT_TYPES, type ContractType, contractTypeSchema } from '../../../shared/contract';
import type { ContractRow } from '../db/rows';
import type { StaffContext } from './staff-context';

/** The four agreement texts (Markdown) served by GET /api/contracts/{type}. */
export function contractOperations({ sqlite, now }: StaffContext) {
  return {
    /** Sets the Markdown text of a contract type. */
    setContract(type: ContractType, content: string): void {
      contractTypeSchema.parse(type);
      z.string().parse(content);
      sqlite
        .prepare(
          'INSERT INTO contracts (type, content, updated_at) VALUES (?, ?, ?) ON CONFLICT (type) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at',
        )
        .run(type, content, now());
    },

    /** Every contract type with its text ('' when never set). */
    listContracts(): Array<{ type: ContractType; content: string }> {
      const rows = sqlite.prepare('SELECT * FROM contracts').all() as ContractRow[];
      const byType = new Map(rows.map((row) => [row.type, row.content]));
      return CONTRACT_TYPES.map((type) => ({ type, content: byType.get(type) ?? '' }));
    },
  };
}
