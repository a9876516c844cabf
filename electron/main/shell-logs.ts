import { createFileLogger } from '../platform/file-log';
import type { Logger } from '../platform/log';

/** How many recent error lines Help → Copy Diagnostics includes. */
export const RECENT_ERRORS = 20;

export interface ShellLogs {
  /** main.log: the shell's lifecycle, the core's restarts, crashes of windows and processes, updates. */
  main: Logger;
  /** renderer.log: the windows' console warnings and errors, and their crashes. */
  renderer: Logger;
  /** The core reports its error lines here too (it writes core.log itself). */
  rememberError(source: 'main' | 'core' | 'renderer', line: string): void;
  recentErrors(): string[];
}

/** The shell's two rotating log files (the core's process writes core.log beside them), and the recent errors. */
export function createShellLogs(logDir: string, now: () => Date = () => new Date()): ShellLogs {
  const recent: string[] = [];
  const rememberError = (source: string, line: string) => {
    recent.push(`${now().toISOString()} ${source}: ${line.slice(0, 300)}`);
    if (recent.length > RECENT_ERRORS) recent.shift();
  };
  const withMemory = (source: 'main' | 'renderer', file: Logger): Logger => ({
    info: file.info,
    warn: file.warn,
    error: (message, fields) => {
      file.error(message, fields);
      rememberError(source, message);
    },
  });
  return {
    main: withMemory('main', createFileLogger(logDir, 'main')),
    renderer: withMemory('renderer', createFileLogger(logDir, 'renderer')),
    rememberError,
    recentErrors: () => [...recent],
  };
}
