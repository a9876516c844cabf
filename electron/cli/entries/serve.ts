import { runServe } from '../serve';

await runServe();
