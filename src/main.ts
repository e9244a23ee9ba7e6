import 'reflect-metadata';
import { runCli } from './cli/cli.js';
import { turnOffPretenuring } from './server/v8-heap-tuning.js';

turnOffPretenuring();
process.exitCode = await runCli(process.argv.slice(2));
