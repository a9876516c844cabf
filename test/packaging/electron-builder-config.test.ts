import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
// electron-builder's own loader and schema check: the config is read exactly as `npm run dist` reads it.
const require = createRequire(path.join(ROOT, 'node_modules', 'electron-builder', 'package.json'));
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

async function config(file = 'electron-builder.yml') {
  const loaded = await getConfig(ROOT, file, null);
  await validateConfiguration(loaded, new DebugLogger(false));
  return loaded as {
    electronFuses?: Record<string, boolean>;
    publish?: Array<{ provider: string; url: string }> | null;
    npmRebuild?: boolean;
    asar?: boolean;
    mac?: { hardenedRuntime?: boolean; notarize?: boolean };
  };
}

describe('electron-builder.yml', () => {
  it('sets every fuse the desk relies on, and passes electron-builder schema check', async () => {
    const { electronFuses, asar } = await config();
    expect(asar).toBe(true);
    expect(electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('rebuilds native modules for Electron and publishes to a generic feed named by the environment', async () => {
    const loaded = await config();
    expect(loaded.npmRebuild).toBe(true);
    // electron-builder expands the macro from the environment when it packages.
    expect(loaded.publish).toEqual([{ provider: 'generic', url: `$${'{'}env.SHELTER_DESK_UPDATE_URL}` }]);
    expect(loaded.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
  });
});
