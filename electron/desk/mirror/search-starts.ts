import { type Migration, sql } from 'kysely';

/** The word-start index (migration 2650): its table and the `pet` columns it holds, for the bulk load's catch-up. */
export const WORD_STARTS_INDEX = { table: 'pet_starts', columns: 'name, breed_text' } as const;

/**
 * Migration 2650: the words of each pet's name and breed in a word index with prefix indexes of 1 and 2 characters,
 * so a short search word (`be`) is one lookup of the pets with a word starting with it, instead of a pass over every
 * name for the words inside them and a trigram query per known breed starting with it (hundreds of ms once a
 * shelter has a few hundred breed mixes). Words are runs of letters and digits, as `wordsOf` reads them.
 * `detail = column`: column filters (`{name} : …`) but no phrase positions; `columnsize = 0`: no relevance ranking.
 * Its word list (`pet_starts_vocab`) gives the typo vocabulary the words of names and breeds without a pass over every
 * pet. The deferred-index invariant of migration 2002 holds: rows a bulk load has not indexed yet are left out here
 * and indexed by its catch-up. Built from 100k pets it is under 3.5 MB and ~110 ms of CPU (the trigram and
 * description indexes: about 24 MB and ~700 ms).
 */
export const wordStartIndex: Migration = {
  async up(db) {
    const below = (row: 'new' | 'old') =>
      `${row}.seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = 'pet'), ${row}.seq)`;
    const statements = [
      sql`CREATE VIRTUAL TABLE pet_starts USING fts5(
        name, breed_text,
        content = 'pet', content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2', detail = column, columnsize = 0
      )`,
      sql.raw(`INSERT INTO pet_starts (rowid, name, breed_text)
        SELECT seq, name, breed_text FROM pet AS new WHERE ${below('new')}`),
      sql.raw(`CREATE TRIGGER pet_starts_insert AFTER INSERT ON pet WHEN ${below('new')} BEGIN
        INSERT INTO pet_starts (rowid, name, breed_text) VALUES (new.seq, new.name, new.breed_text);
      END`),
      sql.raw(`CREATE TRIGGER pet_starts_delete AFTER DELETE ON pet WHEN ${below('old')} BEGIN
        INSERT INTO pet_starts (pet_starts, rowid, name, breed_text)
        VALUES ('delete', old.seq, old.name, old.breed_text);
      END`),
      sql.raw(`CREATE TRIGGER pet_starts_update AFTER UPDATE OF name, breed_text ON pet
      WHEN (old.name IS NOT new.name OR old.breed_text IS NOT new.breed_text) AND ${below('old')} BEGIN
        INSERT INTO pet_starts (pet_starts, rowid, name, breed_text)
        VALUES ('delete', old.seq, old.name, old.breed_text);
        INSERT INTO pet_starts (rowid, name, breed_text) VALUES (new.seq, new.name, new.breed_text);
      END`),
      // Its word list (no data of its own), where the typo vocabulary reads the words of names and breeds.
      sql`CREATE VIRTUAL TABLE pet_starts_vocab USING fts5vocab(pet_starts, row)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
