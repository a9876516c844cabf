import type { BrowserWindow } from 'electron';
import type { DeskProcessHost } from './desk-process-host';

/**
 * `npm run test:electron` (SHELTER_DESK_SMOKE_TEST=1): with the real binary, checks that the window reaches the
 * core through window.desk, that a killed core comes back and answers the same window again, then quits. Prints
 * one `SMOKE …` line for the runner (scripts/test-electron.mjs) and exits 0 or 1.
 */
export async function runSmokeTest(window: BrowserWindow, host: DeskProcessHost): Promise<number> {
  const call = (method: string) =>
    window.webContents.executeJavaScript(`window.desk.call(${JSON.stringify(method)})`, true) as Promise<{
      ok: boolean;
      value?: { mode?: string; versions?: { electron?: string } };
    }>;
  const waitFor = async (check: () => boolean, ms: number) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
      if (check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return check();
  };
  try {
    await host.ready;
    const first = await call('app.info');
    if (!first.ok || first.value?.mode !== 'desktop')
      throw new Error(`app.info answered ${JSON.stringify(first)}`);
    const pid = host.pid();
    if (!pid || pid === process.pid) throw new Error('the core is not in its own process');
    process.kill(pid, 'SIGKILL');
    if (!(await waitFor(() => host.state() === 'running' && host.pid() !== pid, 20_000))) {
      throw new Error(`the core was not restarted (state ${host.state()})`);
    }
    const again = await waitFor(() => true, 500).then(() => call('status.get'));
    if (!again.ok) throw new Error(`after the restart status.get answered ${JSON.stringify(again)}`);
    console.log(`SMOKE OK electron=${process.versions.electron} core pid ${pid} -> ${host.pid()}`);
    return 0;
  } catch (error) {
    console.log(`SMOKE FAILED ${(error as Error).message}`);
    return 1;
  }
}
