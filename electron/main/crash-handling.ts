import { app, crashReporter, type WebContents } from 'electron';
import type { Logger } from '../platform/log';

/**
 * Crash reports stay on this computer: Crashpad writes minidumps to app.getPath('crashDumps') (its folder is in
 * Help → Copy Diagnostics) and nothing is uploaded. Must run before `app` is ready.
 */
export function startLocalCrashReports(): void {
  crashReporter.start({ uploadToServer: false, compress: true });
}

/** Reloads after a crash at most this many times a minute; beyond that the window stays as it is (logged). */
const MAX_RELOADS_PER_MINUTE = 3;

/**
 * Logs a window's renderer that died and reloads it (the preload then asks for a new port: the core lives on in its
 * own process); logs every child process that dies (the GPU, a utility process; the core's restarts are the
 * desk-process host's). A window's console warnings and errors go to renderer.log.
 */
export function watchProcesses(logs: { main: Logger; renderer: Logger }): void {
  const reloads = new Map<number, number[]>();
  app.on('render-process-gone', (_event, contents: WebContents, details) => {
    logs.renderer.error('window process gone', { reason: details.reason, exitCode: details.exitCode });
    if (details.reason === 'clean-exit' || contents.isDestroyed()) return;
    const now = Date.now();
    const recent = (reloads.get(contents.id) ?? []).filter((at) => at > now - 60_000);
    if (recent.length >= MAX_RELOADS_PER_MINUTE) {
      logs.main.error('window not reloaded again', { crashesLastMinute: recent.length });
      return;
    }
    reloads.set(contents.id, [...recent, now]);
    contents.reload();
  });
  app.on('child-process-gone', (_event, details) => {
    const fields = {
      type: details.type,
      reason: details.reason,
      exitCode: details.exitCode,
      name: details.name,
    };
    if (details.reason === 'clean-exit') logs.main.info('child process ended', fields);
    else logs.main.error('child process gone', fields);
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('console-message', (event) => {
      const { level, message, lineNumber, sourceId } = event;
      if (level !== 'warning' && level !== 'error') return;
      const line = `console ${level}: ${message.slice(0, 500)}`;
      const where = { source: sourceId.slice(-120), line: lineNumber };
      if (level === 'error') logs.renderer.error(line, where);
      else logs.renderer.warn(line, where);
    });
  });
}
