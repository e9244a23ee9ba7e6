import { isSluiceError } from '../sdk/errors/index.js';
import { loadConfigWithSources } from '../config/index.js';
import { SLUICE_VERSION } from '../server/version.js';
import { runArchive } from './archive-command.js';
import { startInBackground } from './background-server.js';
import { UsageError } from './cli-errors.js';
import { runForeground } from './foreground-server.js';
import { HELP_TEXT } from './help-text.js';
import { runImportMar } from './import-mar-command.js';
import { runInit } from './init-command.js';
import { configDirectoryOf } from './run-files.js';
import { parseStartFlags } from './start-flags.js';
import { runStatus } from './status-command.js';
import { runStop } from './stop-command.js';
import { runWorkflowCommand } from './workflow-graph/workflow-command.js';

/** Whether the arguments of a command ask for help rather than for the command. */
function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

function help(): number {
  process.stdout.write(HELP_TEXT);
  return 0;
}

async function dispatch(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP_TEXT);
      return command === undefined ? 2 : 0;
    case '--version':
    case '-v':
      process.stdout.write(`${SLUICE_VERSION}\n`);
      return 0;
    case 'start': {
      if (asksForHelp(rest)) return help();
      const flags = parseStartFlags(rest);
      const { config, sources, warnings } = loadConfigWithSources({
        configFile: flags.configFile,
        ...(flags.tsConfigFile !== undefined ? { tsConfigFile: flags.tsConfigFile } : {}),
        cwd,
        env,
        overrides: flags.overrides,
      });
      if (flags.foreground) return runForeground(config, flags.restoreSnapshot, configDirectoryOf(cwd, flags.configFile), sources, warnings);
      for (const warning of warnings) process.stderr.write(`sluice: warning: ${warning}\n`);
      return startInBackground(config, rest, cwd, flags.configFile);
    }
    case 'stop':
      return asksForHelp(rest) ? help() : runStop(rest, cwd);
    case 'status':
      return asksForHelp(rest) ? help() : runStatus(rest, cwd);
    case 'archive':
      return runArchive(rest, cwd);
    case 'init':
      return asksForHelp(rest) ? help() : runInit(rest, cwd);
    case 'import-mar':
      return asksForHelp(rest) ? help() : runImportMar(rest, cwd, env);
    case 'workflow':
      return asksForHelp(rest) ? help() : runWorkflowCommand(rest, cwd, env);
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}; see sluice --help`);
  }
}

/** Runs the `sluice` command line; resolves with the process exit status. */
export async function runCli(argv: readonly string[], cwd = process.cwd(), env = process.env): Promise<number> {
  try {
    return await dispatch(argv, cwd, env);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sluice: ${error.message}\n`);
      return 2;
    }
    if (isSluiceError(error)) {
      process.stderr.write(`sluice: ${error.message} [${error.code}]\n`);
      return 1;
    }
    throw error;
  }
}
