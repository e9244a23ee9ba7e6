import { isSluiceError } from '../common/errors/index.js';
import { dirname, resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE_NAME, loadConfig, loadConfigWithSources } from '../config/index.js';
import { SLUICE_VERSION } from '../server/version.js';
import { runArchive } from './archive-command.js';
import { startInBackground, stopBackground } from './background-server.js';
import { UsageError } from './cli-errors.js';
import { runForeground } from './foreground-server.js';
import { HELP_TEXT } from './help-text.js';
import { parseStartFlags } from './start-flags.js';

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
      const flags = parseStartFlags(rest);
      const { config, sources } = loadConfigWithSources({ configFile: flags.configFile, cwd, env, overrides: flags.overrides });
      const configDirectory = dirname(resolve(cwd, flags.configFile ?? DEFAULT_CONFIG_FILE_NAME));
      if (flags.foreground) return runForeground(config, flags.restoreSnapshot, configDirectory, sources);
      return startInBackground(config, rest, cwd);
    }
    case 'stop':
      return stopBackground(cwd, loadConfig({ cwd, env }).shutdownTimeoutMs + 5000);
    case 'archive':
      return runArchive(rest, cwd);
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
