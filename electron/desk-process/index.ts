/**
 * Entry of the desk core's process, forked by Electron's main with `utilityProcess.fork` (built to
 * out/main/desk-process.js). The only file that touches `process.parentPort`: everything below it is plain Node.
 */
import { createFileLogger } from '../platform/file-log';
import { runDeskProcess } from './desk-process';
import type { ParentPortLike } from './protocol';

const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (!parentPort) {
  console.error('This is the desk core of the desktop app: Electron starts it as a utility process.');
  process.exit(2);
}
runDeskProcess(parentPort, { createLogger: (logDir) => createFileLogger(logDir, 'core') });
