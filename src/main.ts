import 'reflect-metadata';
import { installGlobalContext } from './telemetry/tracing/global-context.js';

// Context propagation must be in place before Nest and the server modules load; they are imported after it.
installGlobalContext();
const { runCli } = await import('./cli/cli.js');
process.exitCode = await runCli(process.argv.slice(2));
