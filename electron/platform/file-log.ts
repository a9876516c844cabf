import path from 'node:path';
import electronLog from 'electron-log/node';
import { createLineLogger, type Logger } from './log';

/** A log file is moved to `<name>.old.log` (replacing the previous one) when it reaches this size. */
export const LOG_FILE_MAX_BYTES = 2 * 1024 * 1024;

export type LogFileName = 'main' | 'core' | 'renderer';

/**
 * A rotating log file `<logDir>/<name>.log` (electron-log's Node build: no Electron needed, so the core's process,
 * main and tests use the same writer). Lines are written synchronously, so the last line before a crash is on disk.
 */
export function createFileLogger(logDir: string, name: LogFileName): Logger & { file: string } {
  const instance = electronLog.create({ logId: `shelter-desk-${name}` });
  const file = path.join(logDir, `${name}.log`);
  instance.transports.file.resolvePathFn = () => file;
  instance.transports.file.maxSize = LOG_FILE_MAX_BYTES;
  instance.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}{z}] [{level}] {text}';
  instance.transports.console.level = false;
  return Object.assign(
    createLineLogger((level, line) => instance[level](line)),
    { file },
  );
}
