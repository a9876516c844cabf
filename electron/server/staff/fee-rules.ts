import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { speciesSchema } from '../../../shared/contract';
import type { FeeRuleRow } from '../db/rows';
import type { StaffContext } from './staff-context';

export const feeRuleInputSchema = z.strictObject({
  species: speciesSchema,
  attributeType: z.string().trim().min(1),
  attributeValue: z.string().default(''),
  adjustment: z.number().finite(),
});
export type FeeRuleInput = z.input<typeof feeRuleInputSchema>;
export type FeeRule = z.output<typeof feeRuleInputSchema>;

/** Adoption fee rules by species: they shape `global_adoption_fee` of every pet without a manual fee. */
export function feeRuleOperations({ app, sqlite, tx }: StaffContext) {
  return {
    /** Replaces all fee rules; pets whose `global_adoption_fee` may change are re-stamped. */
    setFeeRules(rules: FeeRuleInput[]): void {
      const values = z.array(feeRuleInputSchema).parse(rules);
      tx(() => {
        const before = sqlite.prepare('SELECT DISTINCT species FROM fee_rules').pluck().all() as string[];
        sqlite.prepare('DELETE FROM fee_rules').run();
        const insert = sqlite.prepare(
          'INSERT INTO fee_rules (id, species, attribute_type, attribute_value, adjustment, sort_order) VALUES (?, ?, ?, ?, ?, ?)',
        );
        values.forEach((rule, index) => {
          insert.run(
            randomUUID(),
            rule.species,
            rule.attributeType,
            rule.attributeValue,
            rule.adjustment,
            index,
          );
        });
        app.meta.reload();
        const species = [...new Set([...before, ...values.map((rule) => rule.species)])];
        if (species.length > 0) {
          app.pets.touchWhere(
            `adoption_fee = '' AND species IN (${species.map(() => '?').join(', ')})`,
            ...species,
          );
        }
      });
    },

    listFeeRules(): FeeRule[] {
      const rows = sqlite.prepare('SELECT * FROM fee_rules ORDER BY sort_order, id').all() as FeeRuleRow[];
      return rows.map((row) => ({
        species: speciesSchema.parse(row.species),
        attributeType: row.attribute_type,
        attributeValue: row.attribute_value,
        adjustment: row.adjustment,
      }));
    },
  };
}
