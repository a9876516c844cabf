import fs from 'node:fs';
import Database from 'better-sqlite3';

/** Every b-tree of a database (tables, indexes, FTS shadow tables) with its root page; page 1 is the header. */
export function btrees(filename: string): Array<{ type: string; name: string; rootpage: number }> {
  const db = new Database(filename, { readonly: true });
  try {
    return db
      .prepare(`SELECT type, name, rootpage FROM sqlite_schema WHERE rootpage > 1 ORDER BY rootpage`)
      .all() as Array<{ type: string; name: string; rootpage: number }>;
  } finally {
    db.close();
  }
}

export function pageSize(filename: string): number {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(filename, 'r');
  try {
    fs.readSync(fd, header, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  const size = header.readUInt16BE(16);
  return size === 1 ? 65_536 : size;
}

/** Overwrites one page with garbage, as a failing disk or a bad copy would. */
export function corruptPage(filename: string, page: number): void {
  const size = pageSize(filename);
  const fd = fs.openSync(filename, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies a closed database (no -wal left) to `target`, replacing what is there. */
export function copyDatabase(source: string, target: string): void {
  for (const suffix of ['', '-wal', '-shm', '.lock']) fs.rmSync(target + suffix, { force: true });
  fs.copyFileSync(source, target);
}
