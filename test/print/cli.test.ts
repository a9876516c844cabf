import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertApplication } from '../../electron/desk/mirror';
import { startApiServer } from '../../electron/server';
import { deskCli as cli } from '../run-command';
import { withDeskMirror } from '../temp-mirror';
import { openPrintFixture, type PrintFixture } from './fixtures';
import { flat, pdfInfo, pdfText } from './pdf-reader';

let dir: string;
let fixture: PrintFixture;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-print-cli-'));
  fixture = await openPrintFixture(path.join(dir, 'desk'));
  await fixture.mirror.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm run cli -- print', () => {
  it('writes a kennel card found by the shelter id, on US Letter, from the mirror alone', async () => {
    const out = path.join(dir, 'bella.pdf');
    const run = await cli([
      'print',
      'kennel-card',
      'RAR-000199',
      '--paper',
      'letter',
      '--no-photos',
      '--out',
      out,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(out);
    expect(run.stderr).toContain('1 page');
    const pdf = fs.readFileSync(out);
    expect(pdfInfo(pdf)).toMatchObject({ pages: 1, sizes: [{ width: 612, height: 792 }] });
    expect(flat(pdfText(pdf))).toContain('$75.00');
  });

  it('writes cards for a filter and a contract for a person', async () => {
    const cards = path.join(dir, 'dogs.pdf');
    const batch = await cli([
      'print',
      'cards',
      '--status',
      'available',
      '--species',
      'dog',
      '--no-photos',
      '--out',
      cards,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(batch.code, batch.stderr).toBe(0);
    expect(pdfInfo(fs.readFileSync(cards)).pages).toBe(1);
    const contract = path.join(dir, 'contract.pdf');
    const signed = await cli([
      'print',
      'contract',
      fixture.adopter.id,
      '--out',
      contract,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(signed.code, signed.stderr).toBe(0);
    const text = flat(pdfText(fs.readFileSync(contract)));
    expect(text).toContain('Jordan Rivera');
    expect(text).toContain('Rex');
  });

  it("writes an application's agreement by the application id: the applicant, the pets applied for, their fees", async () => {
    const applicationId = 'a7f3c2e1-0b4d-4e8a-9c6f-2d1e0f3b4a5c';
    await withDeskMirror(fixture.dataDir, (mirror) =>
      mirror.db.transaction(() =>
        upsertApplication(mirror.db, {
          id: applicationId,
          personId: fixture.adopter.id,
          kind: 'adopter',
          petIds: [fixture.plain.id, fixture.full.id],
          submittedAt: '2026-06-02T09:30:00.000Z',
          status: 'submitted',
          decidedAt: null,
          source: 'sign-up',
        }),
      )(),
    );
    const out = path.join(dir, 'application.pdf');
    const run = await cli([
      'print',
      'contract',
      applicationId.toUpperCase(),
      '--out',
      out,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('adoption-agreement-jordan-rivera');
    const text = flat(pdfText(fs.readFileSync(out)));
    expect(text).toContain('Jordan Rivera');
    expect(text).toContain('jordan.rivera@example.com');
    expect(text).toContain('Tom');
    expect(text).toContain('Bella Maria Esperanza');
    // The pets of the application, not the pet this adopter adopted before.
    expect(text).not.toContain('Rex');
    // Tom's own fee ($60) and Bella's shelter-wide fee ($75): $135 in all.
    expect(text).toContain('$60.00');
    expect(text).toContain('$75.00');
    expect(text).toContain('Total adoption fee: $135.00');
    // Still waiting for a decision: a draft, which says what to print once it is approved.
    expect(text).toContain('Draft: this application is waiting for a decision');

    const withPets = await cli([
      'print',
      'contract',
      applicationId,
      '--pet',
      fixture.adopted.id,
      '--out',
      out,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(withPets.code).toBe(2);
    expect(withPets.stderr).toContain('is an application');
    const unknown = await cli([
      'print',
      'contract',
      'b0000000-0000-4000-8000-000000000000',
      '--out',
      path.join(dir, 'nobody.pdf'),
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No person with id "b0000000-0000-4000-8000-000000000000"');
  });

  it('names only the pets that went home once an application is approved, and prints nothing for a denied one', async () => {
    const store = (id: string, status: string) =>
      withDeskMirror(fixture.dataDir, (mirror) =>
        mirror.db.transaction(() =>
          upsertApplication(mirror.db, {
            id,
            personId: fixture.adopter.id,
            kind: 'adopter',
            // Applied for Tom and Rex; the approval sent Rex home with Jordan (Rex's adopted_by), Tom stays.
            petIds: [fixture.plain.id, fixture.adopted.id],
            submittedAt: '2026-06-02T09:30:00.000Z',
            status,
            decidedAt: status === 'submitted' ? null : '2026-06-05T15:00:00.000Z',
            source: 'shelter',
          }),
        )(),
      );
    const approved = 'c1f3c2e1-0b4d-4e8a-9c6f-2d1e0f3b4a5c';
    await store(approved, 'approved');
    const out = path.join(dir, 'approved.pdf');
    const run = await cli(['print', 'contract', approved, '--out', out, '--data-dir', fixture.dataDir]);
    expect(run.code, run.stderr).toBe(0);
    const text = flat(pdfText(fs.readFileSync(out)));
    expect(text).toContain('Rex');
    expect(text).not.toContain('Tom');

    const denied = 'd1f3c2e1-0b4d-4e8a-9c6f-2d1e0f3b4a5c';
    await store(denied, 'denied');
    const refused = await cli([
      'print',
      'contract',
      denied,
      '--out',
      path.join(dir, 'denied.pdf'),
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('was denied: there is no agreement to print for it');
    expect(fs.existsSync(path.join(dir, 'denied.pdf'))).toBe(false);
  });

  it('says what is wrong: an unknown pet (exit 1), a bad paper size or no --out (exit 2)', async () => {
    const out = path.join(dir, 'none.pdf');
    const missing = await cli([
      'print',
      'kennel-card',
      'RAR-404',
      '--out',
      out,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No pet with id or shelter id "RAR-404"');
    expect(fs.existsSync(out)).toBe(false);
    const paper = await cli([
      'print',
      'kennel-card',
      'RAR-000199',
      '--paper',
      'a3',
      '--out',
      out,
      '--data-dir',
      fixture.dataDir,
    ]);
    expect(paper.code).toBe(2);
    expect(paper.stderr).toContain('--paper');
    const noOut = await cli(['print', 'contract', fixture.adopter.id, '--data-dir', fixture.dataDir]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out');
  });
});

describe('npm run cli -- print, offline after a sync', () => {
  it("prints the demo shelter's card and an approved adoption from the mirror with the server gone", async () => {
    const readKey = 'r-key-print-0123456789abcdef';
    const server = await startApiServer({
      dataDir: path.join(dir, 'server'),
      port: 0,
      readKey,
      demo: true,
      demoPets: 40,
      rateLimitPerHour: 1_000_000,
    });
    const deskDir = path.join(dir, 'synced');
    let pet: { name: string; custom_id: string };
    let adopter: { id: string };
    try {
      const sync = await cli([
        'sync',
        '--remote',
        server.apiUrl,
        '--key',
        readKey,
        '--data-dir',
        deskDir,
        '--once',
      ]);
      expect(sync.code, sync.stderr).toBe(0);
      const headers = { 'x-api-key': readKey };
      pet = (
        (await (await fetch(`${server.apiUrl}/pets?limit=1&sort=name`, { headers })).json()) as {
          pets: [typeof pet];
        }
      ).pets[0];
      const people = (await (
        await fetch(`${server.apiUrl}/people?type=adopter&limit=100`, { headers })
      ).json()) as {
        people: Array<{ id: string; name: string }>;
      };
      adopter = people.people.find((person) => person.name === 'Jordan Rivera') as { id: string };
    } finally {
      await server.close();
    }
    const card = path.join(dir, 'offline-card.pdf');
    const printed = await cli(['print', 'kennel-card', pet.custom_id, '--out', card, '--data-dir', deskDir]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(flat(pdfText(fs.readFileSync(card)))).toContain(pet.name);
    const agreement = path.join(dir, 'offline-agreement.pdf');
    const signed = await cli(['print', 'contract', adopter.id, '--out', agreement, '--data-dir', deskDir]);
    expect(signed.code, signed.stderr).toBe(0);
    const text = flat(pdfText(fs.readFileSync(agreement)));
    expect(text).toContain('Adoption Agreement');
    expect(text).toContain('Jordan Rivera');
    expect(text).toContain('Total adoption fee');
    // One place to sign: the agreement's own signature block, not a second line from the demo's contract text.
    expect(text.match(/signature/gi)).toEqual(['Signature']);
    expect(text).toContain('Signature of the adopter');
  });
});
