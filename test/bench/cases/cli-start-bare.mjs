// The baseline of the cli-start bench: a bare Node script that opens a SQLite file with better-sqlite3 and prints
// one row. `node test/bench/cases/cli-start-bare.mjs FILE`.
import Database from 'better-sqlite3';

const db = new Database(process.argv[2], { readonly: true, fileMustExist: true });
console.log(JSON.stringify(db.prepare('SELECT type, name FROM sqlite_master LIMIT 1').get()));
db.close();
