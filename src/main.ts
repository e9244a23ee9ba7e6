import 'reflect-metadata';
import { runCli } from './cli/cli.js';

// Telemetry will start here, before Nest is imported by the server.
process.exitCode = await runCli(process.argv.slice(2));
