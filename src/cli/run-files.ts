import { join } from 'node:path';

/** Where a background server keeps its pid and log, relative to the directory it was started in. */
export function runFiles(cwd: string): { dir: string; pidFile: string; logFile: string } {
  const dir = join(cwd, '.sluice');
  return { dir, pidFile: join(dir, 'sluice.pid'), logFile: join(dir, 'sluice.log') };
}
