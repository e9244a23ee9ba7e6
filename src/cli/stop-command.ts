import { DEFAULT_CONFIG } from '../config/index.js';
import { lookUpBackgroundServer, notRunningText, removeRunFiles } from './background-lookup.js';
import { configDirectoryOf, runFiles } from './run-files.js';
import { isBackgroundServer } from './server-identity.js';
import { parseServerFlags } from './server-flags.js';

/** Beyond twice the shutdown timeout (a start-up let finish, then a stop): the process's exit itself. */
const EXIT_GRACE_MS = 5000;

/**
 * `sluice stop [--config FILE]`: sends SIGTERM to the background server `sluice start` started with the same
 * config file (its run files lie beside it), and waits for it to exit: at most twice the `shutdownTimeoutMs`
 * it was started with, plus 5 s. Status 0 once it has exited; 1 when none runs (a stale pid file, of a process
 * gone or of an unrelated one, is removed and nothing is signalled) or it is still running when the wait ends.
 */
export async function runStop(args: readonly string[], cwd: string): Promise<number> {
  const files = runFiles(configDirectoryOf(cwd, parseServerFlags(args).configFile));
  const found = await lookUpBackgroundServer(files);
  if (found.kind !== 'running') {
    process.stderr.write(notRunningText(files, found));
    return 1;
  }
  const { pid } = found;
  const waitMs = 2 * (found.shutdownTimeoutMs ?? DEFAULT_CONFIG.shutdownTimeoutMs) + EXIT_GRACE_MS;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + waitMs;
  while (isBackgroundServer(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isBackgroundServer(pid)) {
    process.stderr.write(`Sluice (pid ${pid}) is still stopping after ${waitMs / 1000} s; see ${files.logFile}\n`);
    return 1;
  }
  await removeRunFiles(files);
  process.stdout.write(`Sluice (pid ${pid}) stopped.\n`);
  return 0;
}
