import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';

import { ROOT } from '../run-command';

export { LAUNCHER, ROOT, type Run, run } from '../run-command';

/** One CPU-burning child per core, so the machine is as loaded as a busy shelter PC; stop() kills exactly them. */
export function burnCpus(): { stop(): void } {
  const children: ChildProcess[] = os
    .cpus()
    .map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    stop() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

/** A long-running child that prints a line matching `ready` once up; resolves with its first match. */
export function startChild(
  command: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** Stops a child with SIGTERM and resolves its exit code (SIGKILL after `graceMs`). */
export function stopChild(child: ChildProcess, graceMs = 20_000): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve(child.exitCode);
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.removeAllListeners('exit');
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}
