import path from 'node:path';
import { ROOT } from './root.mjs';

export { ROOT };
export const RENDERER_OUT = path.join(ROOT, 'out', 'renderer');
export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'shelter-desk');
