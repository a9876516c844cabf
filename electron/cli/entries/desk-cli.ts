import { runDeskCli } from '../desk-cli';

await runDeskCli();
