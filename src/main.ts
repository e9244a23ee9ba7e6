import 'reflect-metadata';
import { runCli } from './cli/cli.js';
import { runAsProcess } from './cli/process-run.js';

// Not a top-level await: a promise that never settles would end the process with status 13 and no word.
runAsProcess(runCli(process.argv.slice(2)));
