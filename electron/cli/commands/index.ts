import type { CliCommandEntry } from './command';

export type { CliCommand, CliCommandEntry, CliIo } from './command';

/**
 * Every `npm run cli` subcommand. To add one, write `commands/<name>.ts` exporting a `CliCommand` and list it here.
 * A command's module is imported only when it is called, so `keys list` does not load the sync client or the PDF
 * writer (the bundle in out/cli keeps each command in its own chunk).
 */
export const COMMANDS: readonly CliCommandEntry[] = [
  {
    name: 'sync',
    summary: 'Pull the server into the local mirror (once, or every 60 s).',
    load: async () => (await import('./sync')).syncCommand,
  },
  {
    name: 'export',
    summary: 'Print mirrored pets, adopters or fosters as JSON or CSV.',
    load: async () => (await import('./export')).exportCommand,
  },
  {
    name: 'import',
    summary:
      'Import pets, adopters or fosters from a CSV or .xlsx file (checked first; queued; works offline).',
    load: async () => (await import('./import')).importCommand,
  },
  {
    name: 'pet',
    summary: 'Create or update a pet on this desk (queued; works offline).',
    load: async () => (await import('./pet')).petCommand,
  },
  {
    name: 'person',
    summary: 'Create an adopter, foster, surrender or volunteer on this desk (queued; works offline).',
    load: async () => (await import('./person')).personCommand,
  },
  {
    name: 'outbox',
    summary: 'List, retry or discard queued local writes (sent by sync).',
    load: async () => (await import('./outbox')).outboxCommand,
  },
  {
    name: 'share',
    summary:
      'Share a standalone shelter on the local network: on, off, status, code (a one-time pairing code).',
    load: async () => (await import('./share')).shareCommand,
  },
  {
    name: 'keys',
    summary:
      "List, create or revoke the shelter's API keys (list, create --read|--write --name N, revoke ID).",
    load: async () => (await import('./keys')).keysCommand,
  },
  {
    name: 'backup',
    summary: 'Write a backup of the shelter database while it keeps serving.',
    load: async () => (await import('./backup')).backupCommand,
  },
  {
    name: 'restore',
    summary: 'Replace the shelter database by a backup (refuses damaged or foreign files).',
    load: async () => (await import('./restore')).restoreCommand,
  },
  {
    name: 'check',
    summary: 'Check every database of a data folder in full; rebuild a damaged desk mirror.',
    load: async () => (await import('./check')).checkCommand,
  },
  {
    name: 'print',
    summary: 'Print kennel cards, event batches and contracts as PDF from the mirror (works offline).',
    load: async () => (await import('./print')).printCommand,
  },
];
