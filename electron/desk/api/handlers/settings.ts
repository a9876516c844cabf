import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';

/** `settings.*`: the desk's own preferences; every change is broadcast so all windows follow it. */
export function registerSettingsHandlers(registry: HandlerRegistry, context: DeskContext): void {
  registry.handle('settings.get', () => context.settings.get());
  registry.handle('settings.update', (patch) => {
    const settings = context.settings.update(patch);
    context.events.emit({ type: 'settings', settings });
    return settings;
  });
}
