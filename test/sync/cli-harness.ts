import { type CliIo, COMMANDS } from '../../electron/cli/commands';
import type { Person, Pet } from '../../shared/contract';

/** Runs `npm run cli -- <name> …` in this process (same code as the command line), capturing its output. */
export async function runCliCommand(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [name, ...argv] = args;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new Error(`no command ${name}`);
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  };
  const code = await (await command.load()).run(argv, io);
  return { code, stdout, stderr };
}

/** What `export pets` / `export adopters` print, parsed. */
export async function exported(
  dataDir: string,
  kind: 'pets' | 'adopters' | 'fosters',
): Promise<Array<Pet | Person>> {
  const result = await runCliCommand(['export', kind, '--data-dir', dataDir]);
  if (result.code !== 0) throw new Error(`export ${kind} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Array<Pet | Person>;
}

/** Records sorted by id, for comparing a mirror's export with the server field by field. */
export function byId<T extends { id: string }>(records: T[]): T[] {
  return [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
}
