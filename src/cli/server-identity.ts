import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Whether process `pid` exists (a process of another user counts as not existing: it cannot be signalled). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The arguments process `pid` was started with; undefined where the system does not tell (no `/proc`). */
function commandLineOf(pid: number): readonly string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    try {
      readFileSync('/proc/self/cmdline');
    } catch {
      return undefined;
    }
    return [];
  }
}

/**
 * Whether `pid` is a server `sluice start` runs in the background: a live process started as
 * `node …/main.js start … --foreground`. A pid file outlives its server (a crash, a reboot), and the pid may
 * since belong to an unrelated process, which `sluice stop` must never signal; a finished server not yet
 * reaped (a zombie) has no command line and does not count either. Where the system does not tell a
 * process's command line, a live process is taken at its word.
 */
export function isBackgroundServer(pid: number): boolean {
  if (!exists(pid)) return false;
  const args = commandLineOf(pid);
  if (args === undefined) return true;
  const [, main, command] = args;
  return main !== undefined && basename(main) === 'main.js' && command === 'start' && args.includes('--foreground');
}
