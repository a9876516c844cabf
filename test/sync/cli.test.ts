import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocalEdit } from '../../electron/desk/mirror';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { deskCli, FROM_SNAPSHOT, type Run, run } from '../run-command';
import { tempDir, withDeskMirror } from '../temp-mirror';

const READ_KEY = 'r-key-cli-0123456789abcdef';
let server: RunningApiServer;
const folder = tempDir('sd-cli-');
const dir = folder.dir;

function cli(args: string[], viaNpm = false): Promise<Run> {
  return viaNpm ? run('npm', ['run', '--silent', 'cli', '--', ...args]) : deskCli(args);
}

beforeAll(async () => {
  server = await startApiServer({
    dataDir: path.join(dir, 'server'),
    port: 0,
    readKey: READ_KEY,
    demo: true,
    demoPets: 130,
    rateLimitPerHour: 1_000_000,
  });
});
afterAll(async () => {
  await server.close();
  folder.remove();
});

describe('npm run cli', () => {
  const desk = () => path.join(dir, 'desk');

  it('syncs once, remembers the remote, and prints only the summary on stdout', async () => {
    const first = await cli(
      ['sync', '--remote', server.apiUrl, '--key', READ_KEY, '--data-dir', desk(), '--once'],
      true,
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Synced http:\/\/127\.0\.0\.1:\d+: \d+ pets? public, \d+ not public, \d+ adopters?, \d+ fosters?; \d+ requests? .*\n$/,
    );
    const again = await cli(['sync', '--data-dir', desk(), '--once', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ remote: server.origin, written: 0 });
    const secrets = path.join(desk(), 'secrets.json');
    expect(fs.statSync(secrets).mode & 0o077).toBe(0);
    expect(first.stdout + again.stdout + again.stderr).not.toContain(READ_KEY);
  });

  it('stops printing quietly when the reader of its output goes away (| head), and exits as usual', async () => {
    const piped = await run('bash', [
      '-o',
      'pipefail',
      '-c',
      `"${process.execPath}" ${FROM_SNAPSHOT.map((arg) => `"${arg}"`).join(' ')} export pets --data-dir "${desk()}" | head -c 100`,
    ]);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    expect(piped.stdout).toHaveLength(100);
  });

  it('exports pets as JSON with pending local edits applied, and people as CSV', async () => {
    const { someId, listed, adopters } = await withDeskMirror(desk(), (mirror) => {
      const someId = (mirror.db.prepare('SELECT id FROM pet LIMIT 1').get() as { id: string }).id;
      setLocalEdit(mirror.db, 'pet', someId, { description: 'Typed offline, "quoted", with, commas' });
      const count = (sql: string) => (mirror.db.prepare(sql).get() as { n: number }).n;
      return {
        someId,
        listed: count(`SELECT COUNT(*) AS n FROM pet WHERE presence != 'removed'`),
        adopters: count(`SELECT COUNT(*) AS n FROM person WHERE type = 'adopter'`),
      };
    });

    const json = await cli(['export', 'pets', '--data-dir', desk()], true);
    expect(json.code).toBe(0);
    const pets = JSON.parse(json.stdout) as Array<{ id: string; description: string }>;
    expect(pets).toHaveLength(listed);
    expect(pets.find((pet) => pet.id === someId)?.description).toBe('Typed offline, "quoted", with, commas');

    // Choices as staff type them: a capital, spaces around.
    const csv = await cli(['Export', ' Adopters', '--data-dir', desk(), '--format', 'CSV ']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.startsWith('\uFEFF')).toBe(true);
    const lines = csv.stdout.slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'id,type,name,email,phone,address,status,status_change_notes,custom_field_data,tags,capacity,created_at,updated_at',
    );
    expect(lines).toHaveLength(adopters + 1);
  });

  it('prints nothing at all when an export fails halfway', async () => {
    const broken = await withDeskMirror(desk(), (mirror) => {
      const broken = mirror.db
        .prepare('SELECT id, effective_json FROM pet ORDER BY id LIMIT 1 OFFSET 60')
        .get() as {
        id: string;
        effective_json: string;
      };
      // Triggers that read the JSON (the Overview's adoption table) would refuse the damage: step around them.
      const triggers = mirror.db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'pet'")
        .all() as Array<{ name: string; sql: string }>;
      for (const trigger of triggers) mirror.db.exec(`DROP TRIGGER "${trigger.name}"`);
      mirror.db.prepare(`UPDATE pet SET effective_json = '{"broken' WHERE id = ?`).run(broken.id);
      for (const trigger of triggers) mirror.db.exec(trigger.sql);
      return broken;
    });
    try {
      for (const format of ['json', 'csv']) {
        const failed = await cli(['export', 'pets', '--data-dir', desk(), '--format', format]);
        expect(failed.code).not.toBe(0);
        expect(failed.stdout).toBe('');
        expect(failed.stderr).not.toBe('');
      }
    } finally {
      await withDeskMirror(desk(), (again) =>
        again.db
          .prepare('UPDATE pet SET effective_json = ? WHERE id = ?')
          .run(broken.effective_json, broken.id),
      );
    }
  });

  it('names the problem and the fix, with a non-zero exit', async () => {
    const missing = await cli(['export', 'pets', '--data-dir', path.join(dir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No mirror in');
    expect(missing.stderr).toContain('npm run cli -- sync --remote URL --key KEY');
    expect(missing.stdout).toBe('');

    const badKey = await cli([
      'sync',
      '--remote',
      server.apiUrl,
      '--key',
      'wrong',
      '--data-dir',
      path.join(dir, 'd2'),
      '--once',
    ]);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('refused the API key');
    expect(badKey.stderr).toContain('--key');
    expect(badKey.stderr).toMatch(/request id [0-9a-f-]{36}/);

    const down = await cli([
      'sync',
      '--remote',
      'http://127.0.0.1:9',
      '--key',
      'k',
      '--data-dir',
      path.join(dir, 'd3'),
      '--once',
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot reach the server');

    const unknown = await cli(['export', 'cats', '--data-dir', desk()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('pets, adopters or fosters');

    const noRemote = await cli(['sync', '--data-dir', path.join(dir, 'd4'), '--once']);
    expect(noRemote.code).toBe(2);
    expect(noRemote.stderr).toContain('--remote URL --key KEY');
  });
});
