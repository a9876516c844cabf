import { z } from 'zod';
import {
  type AdoptionFee,
  adoptionFeeSchema,
  type Contract,
  type ContractType,
  type CustomField,
  contractSchema,
  customFieldSchema,
  type PersonType,
} from '../../../shared/contract';
import { type MirrorDb, statement } from './types';

/** Keys of the metadata the mirror keeps: custom field metadata, fee rules and contract texts. */
export type MetadataKey =
  | 'pet-custom-fields'
  | `person-custom-fields:${PersonType}`
  | 'adoption-fees'
  | `contract:${ContractType}`;

/** Stores one metadata document (already validated) as the server sent it. Returns true if it changed. */
export function storeMetadata(db: MirrorDb, key: MetadataKey, value: unknown, fetchedAt: string): boolean {
  const json = JSON.stringify(value);
  const existing = statement(db, 'SELECT json FROM metadata WHERE key = ?').get(key) as
    | { json: string }
    | undefined;
  if (existing?.json === json) return false;
  statement(
    db,
    `INSERT INTO metadata (key, json, fetched_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
  ).run(key, json, fetchedAt);
  return true;
}

function readMetadata<T>(
  db: MirrorDb,
  key: MetadataKey,
  schema: z.ZodType<T>,
): { value: T; fetchedAt: string } | undefined {
  const row = statement(db, 'SELECT json, fetched_at FROM metadata WHERE key = ?').get(key) as
    | { json: string; fetched_at: string }
    | undefined;
  if (!row) return undefined;
  const parsed = schema.safeParse(JSON.parse(row.json));
  return parsed.success ? { value: parsed.data, fetchedAt: row.fetched_at } : undefined;
}

const customFieldsDoc = z.object({ custom_fields: z.array(customFieldSchema) });
const feesDoc = z.object({ fees: z.array(adoptionFeeSchema) });

/** Custom field metadata of pets or of one person type, as last fetched (empty before the first sync). */
export function getCustomFields(
  db: MirrorDb,
  entity: 'pet' | PersonType,
): { fields: CustomField[]; fetchedAt: string | null } {
  const key: MetadataKey = entity === 'pet' ? 'pet-custom-fields' : `person-custom-fields:${entity}`;
  const stored = readMetadata(db, key, customFieldsDoc);
  return { fields: stored?.value.custom_fields ?? [], fetchedAt: stored?.fetchedAt ?? null };
}

/** The adoption-fee rules as last fetched. */
export function getAdoptionFees(db: MirrorDb): { fees: AdoptionFee[]; fetchedAt: string | null } {
  const stored = readMetadata(db, 'adoption-fees', feesDoc);
  return { fees: stored?.value.fees ?? [], fetchedAt: stored?.fetchedAt ?? null };
}

/** The contract text of one type as last fetched, or null before the first sync. */
export function getContract(db: MirrorDb, type: ContractType): Contract | null {
  return readMetadata(db, `contract:${type}`, contractSchema)?.value ?? null;
}
