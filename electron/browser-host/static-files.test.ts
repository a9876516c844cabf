import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor, resolveStaticPath } from './static-files';

let base: string;
let root: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-static-'));
  root = path.join(base, 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<html></html>');
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), '');
  fs.writeFileSync(path.join(base, 'secrets.json'), '{}');
  fs.symlinkSync(path.join(base, 'secrets.json'), path.join(root, 'assets', 'link.json'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('resolveStaticPath', () => {
  it('maps / to index.html and asset paths to files', () => {
    expect(resolveStaticPath(root, '/')).toBe(fs.realpathSync(path.join(root, 'index.html')));
    expect(resolveStaticPath(root, '/assets/app.js')).toBe(
      fs.realpathSync(path.join(root, 'assets', 'app.js')),
    );
  });

  it.each([
    '/../secrets.json',
    '/%2e%2e/secrets.json',
    '/assets/%2E%2E/%2E%2E/secrets.json',
    '/..%2fsecrets.json',
    '/..%5csecrets.json',
    '/index.html%00.js',
    '/%E0%A4%A',
    '/assets',
    '/missing.js',
    '/assets/link.json',
  ])('refuses %s', (urlPath) => {
    expect(resolveStaticPath(root, urlPath)).toBeNull();
  });

  it('names content types so browsers do not sniff', () => {
    expect(contentTypeFor('a.js')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('a.css')).toMatch(/^text\/css/);
    expect(contentTypeFor('a.unknown')).toBe('application/octet-stream');
  });
});
