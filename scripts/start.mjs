#!/usr/bin/env node
// `npm start`: loads the TypeScript launcher (scripts/start-app.ts) through tsx, in this process so
// that Ctrl+C and SIGTERM reach the running desk directly.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/args.ts');
const { main } = await import('./start-app.ts');
await runCli(() => main(process.argv.slice(2)));
