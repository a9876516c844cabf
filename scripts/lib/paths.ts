import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (scripts/lib/../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_OUT = path.join(ROOT, 'out', 'renderer');
export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'shelter-desk');
