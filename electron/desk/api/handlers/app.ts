import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';

/** `app.*`: facts about this desk. */
export function registerAppHandlers(registry: HandlerRegistry, context: DeskContext): void {
  registry.handle('app.info', () => ({
    name: 'Shelter Desk',
    version: context.appVersion,
    mode: context.mode,
    ...(context.modeReason !== undefined && { modeReason: context.modeReason }),
    dataDir: context.dataDir,
    platform: process.platform,
    versions: { node: process.versions.node, ...context.shellVersions },
  }));
}
