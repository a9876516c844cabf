import { describe, expect, it } from 'vitest';
import { INITIAL_DESK_STATUS } from '../../shared/desk-api';
import { formatDiagnostics } from './diagnostics';

describe('Copy Diagnostics', () => {
  it('has versions, folders, the sync state and recent errors, and only the server origin', () => {
    const text = formatDiagnostics({
      appVersion: '1.2.3',
      versions: { electron: '45.4.1', chrome: '140.0', node: '22.0.0' },
      platform: 'win32',
      arch: 'x64',
      osRelease: '10.0.22631',
      dataDir: 'C:\\Users\\desk\\AppData\\Roaming\\Shelter Desk',
      logDir: 'C:\\Users\\desk\\AppData\\Roaming\\Shelter Desk\\logs',
      crashDumpsDir: 'C:\\Crashpad',
      coreState: 'running',
      corePid: 4321,
      status: {
        ...INITIAL_DESK_STATUS,
        state: 'error',
        remote: 'https://user:pass@api.example.org/shelter?key=abc',
        pending: 4,
        error: { code: 'internal_error', message: 'failed', requestId: 'req-1' },
      },
      updates: 'off in development builds',
      recentErrors: ['2026-01-01T00:00:00.000Z core: sync failed'],
    });
    expect(text).toContain('Version: 1.2.3');
    expect(text).toContain('Electron 45.4.1');
    expect(text).toContain('Data folder: C:\\Users\\desk\\AppData\\Roaming\\Shelter Desk');
    expect(text).toContain('Core process: running (pid 4321)');
    expect(text).toContain('server https://api.example.org,');
    expect(text).toContain('Changes waiting: 4');
    expect(text).toContain('request req-1');
    expect(text).toContain('core: sync failed');
    expect(text).not.toMatch(/pass|key=abc/);
  });
});
