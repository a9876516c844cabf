import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from './secret-store';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-secrets-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('FileSecretStore', () => {
  it('keeps secrets across instances in an owner-only file', async () => {
    const dir = tempDir();
    await new FileSecretStore(dir).set('sync.api-key', 's3cret');
    expect(await new FileSecretStore(dir).get('sync.api-key')).toBe('s3cret');
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    }
  });

  it('deletes a secret and answers undefined for unknown names', async () => {
    const store = new FileSecretStore(tempDir());
    await store.set('a', '1');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    await expect(store.delete('never-set')).resolves.toBeUndefined();
  });

  it('tightens a file left readable by others', async () => {
    if (process.platform === 'win32') return;
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, '{"k":"v"}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(await new FileSecretStore(dir).get('k')).toBe('v');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('moves an unreadable file aside instead of destroying it', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'secrets.json'), 'not json');
    const store = new FileSecretStore(dir);
    expect(await store.get('k')).toBeUndefined();
    expect(fs.readdirSync(dir).some((name) => name.startsWith('secrets.json.unreadable-'))).toBe(true);
  });

  it('encodes values on disk with a codec', async () => {
    const dir = tempDir();
    const codec = {
      encode: (v: string) => Buffer.from(v).toString('base64'),
      decode: (s: string) => Buffer.from(s, 'base64').toString(),
    };
    const store = new FileSecretStore(dir, { codec, protection: 'encrypted' });
    await store.set('key', 'plain-text-value');
    expect(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')).not.toContain('plain-text-value');
    expect(await store.get('key')).toBe('plain-text-value');
  });

  it('rejects names that could escape the table', async () => {
    const store = new FileSecretStore(tempDir());
    await expect(store.set('../x', 'v')).rejects.toThrow();
  });
});
