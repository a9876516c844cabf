import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBefore, noteLoaded } from '../../scripts/lib/native-stamp.mjs';
import { tempDir } from '../temp-mirror';

describe("the note that better-sqlite3's addon loads in a runtime", () => {
  it('holds while the addon and the runtime are as they were, and not after a rebuild or for another runtime', () => {
    const folder = tempDir('sd-native-stamp-');
    try {
      const root = folder.dir;
      const addon = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
      expect(loadedBefore('node', root)).toBe(false);
      // No addon: nothing to note.
      noteLoaded('node', root);
      expect(loadedBefore('node', root)).toBe(false);

      fs.mkdirSync(path.dirname(addon), { recursive: true });
      fs.writeFileSync(addon, 'built for node');
      expect(loadedBefore('node', root)).toBe(false);
      noteLoaded('node', root);
      expect(loadedBefore('node', root)).toBe(true);
      // Electron is another runtime (and not installed here): its own note, none yet.
      expect(loadedBefore('electron', root)).toBe(false);

      // Rebuilt (for Electron, say): the addon's size and time moved, so the next start tries it again.
      fs.writeFileSync(addon, 'built for electron 38');
      expect(loadedBefore('node', root)).toBe(false);
      noteLoaded('node', root);
      expect(loadedBefore('node', root)).toBe(true);
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(addon, later, later);
      expect(loadedBefore('node', root)).toBe(false);
    } finally {
      folder.remove();
    }
  });
});
