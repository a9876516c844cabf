import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mirror } from '../mirror';
import { openDeskMirror } from './open-desk-mirror';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openDeskMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

describe('outbox migrations in the mirror database', () => {
  it('1001 creates the outbox, the id map and the conflict notices next to the mirror tables', () => {
    const tables = mirror.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'outbox%' ORDER BY name`)
      .all() as Array<{ name: string }>;
    expect(tables.map((table) => table.name)).toEqual(['outbox', 'outbox_conflict', 'outbox_id_map']);
    expect(() =>
      mirror.db
        .prepare(
          `INSERT INTO outbox (operation, entity_type, entity_id, method, path, body, idempotency_key, state,
             fields_json, created_ms) VALUES ('pet.delete', 'pet', 'x', 'DELETE', '/', '{}', 'k', 'pending', '{}', 0)`,
        )
        .run(),
    ).toThrow(/CHECK constraint/);
  });

  it("1002 and the mirror's 2602 make the duplicate checks index look-ups, with one index of microchips (1003)", () => {
    const plan = (sql: string) =>
      (mirror.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
        .map((row) => row.detail)
        .join(' ');
    expect(
      plan(
        `SELECT id FROM pet WHERE microchip_id IS NOT NULL AND lower(replace(replace(microchip_id, ' ', ''), '-', '')) = 'x'`,
      ),
    ).toMatch(/USING INDEX pet_microchip_key/);
    expect(
      mirror.db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'outbox_pet_microchip'").get(),
    ).toBeUndefined();
    expect(plan(`SELECT id FROM person WHERE email IS NOT NULL AND lower(trim(email)) = 'x'`)).toMatch(
      /USING INDEX outbox_person_email/,
    );
    expect(plan(`SELECT id FROM person WHERE lower(trim(name)) = 'x'`)).toMatch(
      /USING INDEX outbox_person_name/,
    );
  });
});
