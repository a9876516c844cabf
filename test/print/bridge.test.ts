import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { openPrintFixture, type PrintFixture } from './fixtures';
import { flat, pdfInfo, pdfText } from './pdf-reader';

let dir: string;
let fixture: PrintFixture;
let core: DeskCore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-print-bridge-'));
  fixture = await openPrintFixture(path.join(dir, 'desk'));
  await fixture.mirror.close();
  core = await createDeskCore({ dataDir: fixture.dataDir, appVersion: 'test' });
  await core.registry.invoke('settings.update', { shelterName: 'Riverbend Animal Rescue' });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('DeskApi: print and dashboard', () => {
  it('returns the same kennel card the CLI writes, as base64 with its size and pages', async () => {
    const card = await core.registry.invoke('print.kennelCard', { id: 'RAR-000002', paper: 'letter' });
    const pdf = Buffer.from(card.base64, 'base64');
    expect(card).toMatchObject({ filename: 'kennel-card-tom-rar-000002.pdf', pages: 1, bytes: pdf.length });
    expect(pdfInfo(pdf).sizes[0]).toEqual({ width: 612, height: 792 });
    expect(flat(pdfText(pdf))).toContain('Riverbend Animal Rescue');
  });

  it('prints cards for a filter and a contract, and refuses bad input with a clear error', async () => {
    const cards = await core.registry.invoke('print.cards', { filter: { species: 'dog', sort: 'name' } });
    expect(cards.pages).toBe(2);
    const contract = await core.registry.invoke('print.contract', {
      personId: fixture.adopter.id,
      petIds: ['RAR-000002'],
    });
    expect(flat(pdfText(Buffer.from(contract.base64, 'base64')))).toContain('Tom');
    const missing = await core.registry.call('print.kennelCard', { id: 'RAR-404' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const badPaper = await core.registry.call('print.kennelCard', { id: 'RAR-000002', paper: 'a3' });
    expect(badPaper).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('answers the dashboard from the mirror', async () => {
    const dashboard = await core.registry.invoke('dashboard.get');
    expect(dashboard.inCare.total).toBe(2);
    expect(dashboard.inCare.bySpecies).toEqual([
      { species: 'cat', count: 1 },
      { species: 'dog', count: 1 },
    ]);
    expect(dashboard.months).toHaveLength(12);
  });
});

describe('DeskApi: dashboard after a change', () => {
  it('shows a pet saved on this desk at once (the figures are recomputed when the mirror changes)', async () => {
    const before = await core.registry.invoke('dashboard.get');
    expect(await core.registry.invoke('dashboard.get')).toEqual(before);
    await core.registry.invoke('outbox.createPet', {
      fields: {
        name: 'Pip',
        species: 'rabbit',
        age_category: 'young',
        sex: 'male',
        size: 'small',
        status: 'intake',
        health: 'good',
      },
    });
    const after = await core.registry.invoke('dashboard.get');
    expect(after.inCare.total).toBe(before.inCare.total + 1);
    expect(after.inCare.bySpecies).toContainEqual({ species: 'rabbit', count: 1 });
    expect(after.sync.waiting).toBe(before.sync.waiting + 1);
  });
});
