import type { DeskStatus } from '../../shared/desk-api';

export interface DiagnosticFacts {
  appVersion: string;
  versions: { electron?: string; chrome?: string; node?: string };
  platform: string;
  arch: string;
  osRelease: string;
  dataDir: string;
  logDir: string;
  crashDumpsDir: string;
  coreState: string;
  corePid: number | undefined;
  status: DeskStatus | undefined;
  updates: string;
  recentErrors: string[];
}

/**
 * Help → Copy Diagnostics: what a shelter's IT person or a developer needs first, as plain text to paste into an
 * email. Facts about the install only: never a key (the status holds none), the server's address only as its
 * origin, and error lines as the logs keep them (ids and codes, no personal data).
 */
export function formatDiagnostics(facts: DiagnosticFacts): string {
  const status = facts.status;
  let remote = 'none';
  if (status?.remote) {
    try {
      remote = new URL(status.remote).origin;
    } catch {
      remote = status.remote;
    }
  }
  const lines = [
    'Shelter Desk diagnostics',
    `Version: ${facts.appVersion}`,
    `Electron ${facts.versions.electron ?? '?'}, Chrome ${facts.versions.chrome ?? '?'}, Node ${facts.versions.node ?? '?'}`,
    `System: ${facts.platform} ${facts.arch} ${facts.osRelease}`,
    `Data folder: ${facts.dataDir}`,
    `Logs folder: ${facts.logDir}`,
    `Crash reports: ${facts.crashDumpsDir}`,
    `Core process: ${facts.coreState}${facts.corePid ? ` (pid ${facts.corePid})` : ''}`,
    `Sync: ${status ? `${status.state}, server ${remote}, last synced ${status.lastSyncedAt ?? 'never'}` : 'unknown'}`,
    `Changes waiting: ${status?.pending ?? '?'}; needing attention: ${status?.needsAttention ?? '?'}`,
    ...(status?.error
      ? [
          `Last sync error: ${status.error.code}${status.error.requestId ? ` (request ${status.error.requestId})` : ''}`,
        ]
      : []),
    `Updates: ${facts.updates}`,
    `Recent errors (${facts.recentErrors.length}):`,
    ...(facts.recentErrors.length > 0 ? facts.recentErrors.map((line) => `  ${line}`) : ['  none']),
  ];
  return `${lines.join('\n')}\n`;
}
