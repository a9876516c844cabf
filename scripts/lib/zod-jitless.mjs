// zod without its compiled fast path for objects, for every schema in the command line's snapshot. Imported by
// cli-snapshot.mjs before anything that builds a schema: a schema reads the setting once, when it is made, so set
// after the modules load (as it was) it reached none of the 2,000 schemas they make. Every command then skips
// generating and compiling a fast path for each kind of object it checks first (1-5 ms of an `outbox list`); the
// price is in the long checks only: a pet of the contract takes about 7 µs instead of 5, some 0.2 s of a first sync
// of 100k pets from the command line.
import { z } from 'zod';

z.config({ jitless: true });
