import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../electron/desk/api';
import { draftFile } from '../../electron/desk/api/handlers/drafts';
import { DeskCallError, MAX_DRAFT_BYTES } from '../../shared/desk-api';
import { tempDir } from '../temp-mirror';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function desk(dir?: string) {
  const folder = dir ?? tempDir('drafts-');
  const dataDir = typeof folder === 'string' ? folder : folder.dir;
  if (typeof folder !== 'string') cleanups.push(() => folder.remove());
  const core = await createDeskCore({ dataDir, appVersion: 'test' });
  cleanups.push(() => core.close());
  return { core, dataDir };
}

describe('a form’s typing kept on the desk (drafts.*)', () => {
  it('keeps the last typing through a restart of the desk, readable by this user only, until cleared', async () => {
    const { core, dataDir } = await desk();
    expect(await core.registry.invoke('drafts.get', { name: 'intake' })).toBeNull();
    const typing = { name: 'Kept Kiwi', species: 'cat', intake_date: '2026-11-29', good_with: ['cats'] };
    await core.registry.invoke('drafts.put', { name: 'intake', value: { ...typing, name: 'Kept K' } });
    await core.registry.invoke('drafts.put', { name: 'intake', value: typing });
    await core.close();

    const again = (await desk(dataDir)).core;
    const kept = await again.registry.invoke('drafts.get', { name: 'intake' });
    expect(kept?.value).toEqual(typing);
    expect(Date.parse(kept?.savedAt ?? '')).not.toBeNaN();
    expect(await again.registry.invoke('drafts.get', { name: 'sign-up' })).toBeNull();
    expect(fs.statSync(draftFile(dataDir, 'intake')).mode & 0o777).toBe(0o600);

    await again.registry.invoke('drafts.clear', { name: 'intake' });
    expect(await again.registry.invoke('drafts.get', { name: 'intake' })).toBeNull();
    expect(fs.existsSync(draftFile(dataDir, 'intake'))).toBe(false);
  });

  it('refuses a draft too big to keep with what to do, keeping the last one; a damaged file is no draft', async () => {
    const { core, dataDir } = await desk();
    await core.registry.invoke('drafts.put', { name: 'sign-up', value: { name: 'Aroha' } });
    const big = { name: 'x'.repeat(MAX_DRAFT_BYTES) };
    const refused = await core.registry.invoke('drafts.put', { name: 'sign-up', value: big }).catch((e) => e);
    expect(refused).toBeInstanceOf(DeskCallError);
    expect((refused as DeskCallError).message).toMatch(/Save it soon/);
    expect((await core.registry.invoke('drafts.get', { name: 'sign-up' }))?.value).toEqual({ name: 'Aroha' });
    const unknown = await core.registry.invoke('drafts.get', { name: 'other' as 'intake' }).catch((e) => e);
    expect(unknown).toBeInstanceOf(DeskCallError);

    fs.writeFileSync(draftFile(dataDir, 'sign-up'), '{"value": {"name": "Ar');
    expect(await core.registry.invoke('drafts.get', { name: 'sign-up' })).toBeNull();
  });
});
