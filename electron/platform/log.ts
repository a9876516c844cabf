/**
 * The one logging interface the desk core, the sync service, the outbox and the embedded server accept. The core
 * stays free of Electron: the desktop's core process passes a logger that writes rotating files (electron-log's
 * Node build), tests pass one that collects lines, and everything else defaults to `noopLogger`.
 *
 * What goes in: ids (request ids, outbox entry ids, record ids), counts, codes, states, durations. What never goes
 * in: API keys, tokens, passwords, and people's or pets' details (names, emails, phones, addresses, free text).
 * Fields whose name suggests a secret are masked as a last line of defence; callers still pick what they log.
 */
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const noopLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const SECRET_FIELD = /key|secret|token|password|passphrase|authorization|cookie/i;

/** `message field=value …`, one line; values that look like secrets by their field name are masked. */
export function formatLogLine(message: string, fields: LogFields = {}): string {
  const parts = [message.replace(/\s+/g, ' ')];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const shown = SECRET_FIELD.test(name) ? '[masked]' : String(value).replace(/\s+/g, ' ');
    parts.push(`${name}=${/[\s="]/.test(shown) ? JSON.stringify(shown) : shown}`);
  }
  return parts.join(' ');
}

/** A logger over any line sink (a file transport, an array in tests). A throwing sink never breaks the caller. */
export function createLineLogger(write: (level: LogLevel, line: string) => void): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    try {
      write(level, formatLogLine(message, fields));
    } catch {
      // Logging must never take the desk down (a full disk, a closed file).
    }
  };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** Lines to the console (the CLI and browser mode, where the terminal is the log). */
export const consoleLogger: Logger = createLineLogger((level, line) => {
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
});
