// `npm start` as built into out/cli/start.js (scripts/lib/cli-build.mjs), which scripts/start.mjs runs when it is
// current: the launcher of scripts/start-app.ts, with its errors said as the command line says them.
import { runCli } from '../../electron/cli/args';
import { main } from '../start-app';

await runCli(() => main(process.argv.slice(2)));
