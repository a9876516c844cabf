import fs from 'node:fs';
import path from 'node:path';
import { startBrowserMode } from '../../electron/cli/start-browser';

/**
 * Browser mode of the desk on a data folder, as `npm start` runs it (the UI files are a stub: the test drives the
 * bridge over HTTP). Argument: the data folder.
 */
const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: browser-child.ts DATA_DIR');
const rendererDir = path.join(dataDir, '..', 'renderer-stub');
fs.mkdirSync(rendererDir, { recursive: true });
fs.writeFileSync(
  path.join(rendererDir, 'index.html'),
  '<!doctype html><html><head></head><body></body></html>',
);
await startBrowserMode({
  dataDir,
  port: 0,
  open: false,
  reason: 'concurrency test',
  rendererDir,
  appVersion: '0.0.0',
});
