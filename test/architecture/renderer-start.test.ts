import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER_SRC = path.resolve(import.meta.dirname, '../../renderer/src');
const ENTRY = path.join(RENDERER_SRC, 'main.tsx');

/** Runtime imports of one source file: `import type` is erased; `import()` is loaded later, on demand. */
function runtimeSpecifiers(source: string): string[] {
  const found: string[] = [];
  const statement = /^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) if (!match[1] && match[2]) found.push(match[2]);
  return found;
}

function resolveSource(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Every package a new tab evaluates before its first frame, with the chain of modules that brings it in. */
function packagesAtStart(): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, path.relative(RENDERER_SRC, file)];
    for (const specifier of runtimeSpecifiers(fs.readFileSync(file, 'utf8'))) {
      const next = resolveSource(file, specifier);
      if (next) walk(next, here);
      else if (!specifier.startsWith('.') && !packages.has(specifier)) packages.set(specifier, here);
    }
  };
  walk(ENTRY, []);
  return packages;
}

describe('what a new tab loads before its first frame', () => {
  it('leaves out zod: the bridge checks replies by hand and loads the event schemas later, the pet form its own', () => {
    const zod = [...packagesAtStart()].find(([name]) => name === 'zod' || name.startsWith('zod/'));
    expect(zod, zod && `${zod[0]} is loaded at start through ${zod[1].join(' -> ')}`).toBeUndefined();
  });
});
