// zod without its compiled fast path for objects, for every schema in the command line's snapshot. Imported by
// cli-snapshot.mjs before anything that builds a schema: a schema reads the setting once, when it is made, so set
// after the modules load (as it was) it reached none of the 2,000 schemas they make. A record of the contract checks
// about as fast without the fast path, and a command no longer generates and compiles one for each kind of object it
// checks first (1-5 ms of an `outbox list`).
import { z } from 'zod';

z.config({ jitless: true });
