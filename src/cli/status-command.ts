import { lookUpBackgroundServer, notRunningText } from './background-lookup.js';
import { configDirectoryOf, runFiles } from './run-files.js';
import { parseServerFlags } from './server-flags.js';

/**
 * `sluice status [--config FILE]`: whether the background server of that config file runs. Status 0 and its
 * pid and log when it does; 3 (as `service … status` answers for a stopped service) when it does not.
 */
export async function runStatus(args: readonly string[], cwd: string): Promise<number> {
  const files = runFiles(configDirectoryOf(cwd, parseServerFlags(args).configFile));
  const found = await lookUpBackgroundServer(files);
  if (found.kind !== 'running') {
    process.stdout.write(notRunningText(files, found));
    return 3;
  }
  process.stdout.write(`Sluice (pid ${found.pid}) runs; log: ${files.logFile}\n`);
  return 0;
}
