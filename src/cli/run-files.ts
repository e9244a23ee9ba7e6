import { dirname, join, resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE_NAME } from '../config/index.js';
import { STATE_FOLDER_NAME } from '../sdk/files/private-directory.js';

/** Where a background server keeps its pid, its log and what `sluice stop` needs to know of it. */
export interface RunFiles {
  /** The `.sluice` folder. */
  readonly dir: string;
  /** The server's pid, alone on a line. */
  readonly pidFile: string;
  readonly logFile: string;
  /** JSON: the pid and the `shutdownTimeoutMs` the server was started with. */
  readonly recordFile: string;
  /** Held by the `sluice start` starting a server, so a second one at the same time is refused; holds its pid. */
  readonly lockFile: string;
}

/**
 * The folder `sluice start`, `stop` and `status` read a command's config file from: the folder of
 * `--config FILE` (relative to `cwd`), or `cwd` without one. Token-auth's key file lies there too.
 */
export function configDirectoryOf(cwd: string, configFile: string | undefined): string {
  return dirname(resolve(cwd, configFile ?? DEFAULT_CONFIG_FILE_NAME));
}

/**
 * The run files of the background server of a config file: in `.sluice/` of its folder
 * ({@link configDirectoryOf}), so `sluice stop --config FILE` finds the server `sluice start --config FILE`
 * started, from any working directory.
 */
export function runFiles(configDirectory: string): RunFiles {
  const dir = join(configDirectory, STATE_FOLDER_NAME);
  return { dir, pidFile: join(dir, 'sluice.pid'), logFile: join(dir, 'sluice.log'), recordFile: join(dir, 'sluice.run.json'), lockFile: join(dir, 'sluice.start.lock') };
}

/** How to run `sluice <command>` for the server of `configFile` (as `--config` named it), to quote in messages. */
export function commandLine(command: string, configFile: string | undefined): string {
  if (configFile === undefined) return `sluice ${command}`;
  return `sluice ${command} --config ${/^[\w./@:+-]+$/.test(configFile) ? configFile : JSON.stringify(configFile)}`;
}
