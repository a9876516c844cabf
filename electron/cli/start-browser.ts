import { spawn } from 'node:child_process';
import { startBrowserHost } from '../browser-host/browser-host';
import { createDeskCore, type DeskCore } from '../desk/api/desk-core';

export interface BrowserModeOptions {
  dataDir: string;
  /** 0 = any free port. */
  port: number;
  /** Launch the system browser at the URL. */
  open: boolean;
  /** One sentence: why the desktop window is not used. */
  reason: string;
  /** The built renderer (`out/renderer`). */
  rendererDir: string;
  appVersion: string;
}

export interface RunningBrowserMode {
  url: string;
  core: DeskCore;
  /** Closes the HTTP host, then the core. */
  close(): Promise<void>;
}

/**
 * Browser mode of `npm start`: the desk core under plain Node, its UI and bridge served on 127.0.0.1.
 * Prints the URL line (tests parse it) and why browser mode was chosen; Ctrl+C or SIGTERM shut down
 * cleanly with exit code 0.
 */
export async function startBrowserMode(options: BrowserModeOptions): Promise<RunningBrowserMode> {
  const core = await createDeskCore({
    dataDir: options.dataDir,
    mode: 'browser',
    modeReason: options.reason,
    appVersion: options.appVersion,
  });
  let host: Awaited<ReturnType<typeof startBrowserHost>>;
  try {
    host = await startBrowserHost({ core, rendererDir: options.rendererDir, port: options.port });
  } catch (error) {
    await core.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `Port ${options.port} is already in use (is Shelter Desk already running?). ` +
          'Start with --port 0 for any free port, or --port N for another one.',
      );
    }
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= host.close().then(() => core.close());
    return closing;
  };
  const stopFor = (why: string) => {
    console.log(`\nStopping Shelter Desk (${why})…`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shelter Desk did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stopFor);
  process.once('SIGTERM', stopFor);
  // Only under `npm start`, whose shell does not pass SIGTERM on: a desk someone started with node itself (nohup,
  // a service manager that forks twice) outlives its parent on purpose.
  if (process.env.npm_lifecycle_event === 'start') {
    stopWhenOrphaned(() => {
      // The terminal may be gone with npm: a line it cannot take must not stop the clean stop.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
      stopFor('npm start, which started it, has stopped');
    });
  }

  // One write, so a reader of the output sees both lines together.
  console.log(`Shelter Desk is running at ${host.url}\nBrowser mode: ${options.reason}`);
  if (options.open) openInBrowser(host.url);
  return { url: host.url, core, close };
}

/** How often a desk in browser mode looks whether what started it is still there. */
const PARENT_CHECK_MS = 1000;

/** The process that started this one, as it was when this module loaded (before any build the start runs). */
const PARENT_AT_START = process.ppid;

/**
 * Calls `stop` once the process that started this one (`startedBy`) is gone, also when it went before this was
 * called (during the build a start may run first). `npm start` runs the desk under `sh -c`: SIGTERM sent to npm (a
 * service manager, a script stopping what it started) ends npm and the shell, but not the desk, which would go on
 * holding its data folder (the next start would find it in use). A desk started by init itself is left alone.
 */
export function stopWhenOrphaned(
  stop: () => void,
  startedBy: number = PARENT_AT_START,
  parentOf: () => number = () => process.ppid,
): void {
  if (startedBy <= 1) return;
  const timer = setInterval(() => {
    if (parentOf() === startedBy) return;
    clearInterval(timer);
    stop();
  }, PARENT_CHECK_MS);
  timer.unref();
}

/** Opens a URL with the desktop's handler; a failure only prints a hint (the URL is already shown). */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => console.log(`Open ${url} in your browser.`));
    child.unref();
  } catch {
    console.log(`Open ${url} in your browser.`);
  }
}
