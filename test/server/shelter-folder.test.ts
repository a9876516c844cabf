import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shelterFolderOf } from '../../electron/server';
import { tempDataDir } from './harness';

describe('the shelter folder a command given a data folder works in', () => {
  it("is a desk's standalone folder when given the desk's data folder, with or without its shelter yet", () => {
    const desk = tempDataDir('desk-');
    fs.writeFileSync(path.join(desk, 'connection.json'), '{}');
    expect(shelterFolderOf(desk)).toBe(path.join(desk, 'standalone'));
    fs.mkdirSync(path.join(desk, 'standalone'));
    fs.writeFileSync(path.join(desk, 'standalone', 'server.sqlite'), '');
    expect(shelterFolderOf(desk)).toBe(path.join(desk, 'standalone'));
  });

  it('is the folder itself for a server folder, old or new', () => {
    const fresh = tempDataDir('serve-');
    expect(shelterFolderOf(fresh)).toBe(fresh);
    const existing = tempDataDir('serve-');
    fs.writeFileSync(path.join(existing, 'server.sqlite'), '');
    expect(shelterFolderOf(existing)).toBe(existing);
  });
});
