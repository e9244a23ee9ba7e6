import { spawn } from 'node:child_process';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makeDirectories } from '../common/make-directories.js';
import type { SluiceConfig } from '../config/index.js';
import { UsageError } from './cli-errors.js';
import { runFiles } from './run-files.js';
import { waitForServing } from './serving-notice.js';
import { lastLoggedError } from './start-log.js';

const START_WAIT_MS = 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readPid(pidFile: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `killed by ${signal}`;
  return code === null ? 'could not be started' : `exit status ${code}`;
}

/**
 * Starts `sluice start --foreground` as a detached process logging to `.sluice/sluice.log`, and waits
 * (at most 60 s) until that process itself reports over IPC that every port listens; another server
 * answering on the same ports does not count. The pid goes to `.sluice/sluice.pid` for `sluice stop`. A
 * child that exits first fails the start: status 1, pid file removed, its last logged error quoted (or,
 * when it exited 0, word that it was stopped). A `.sluice` directory that cannot be created is a `sluice:`
 * line naming it and status 1.
 */
export async function startInBackground(config: SluiceConfig, args: readonly string[], cwd: string): Promise<number> {
  const files = runFiles(cwd);
  const existing = await readPid(files.pidFile);
  if (existing !== undefined && alive(existing)) throw new UsageError(`Sluice already runs here (pid ${existing}); stop it with sluice stop`);
  try {
    await makeDirectories(files.dir);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`sluice: cannot create ${files.dir} for the server's pid and log files (${reason}); run sluice start from a directory where it can be created, or use --foreground\n`);
    return 1;
  }
  const log = await open(files.logFile, 'a');
  const logStart = (await log.stat()).size;
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'start', ...args, '--foreground'], {
    cwd,
    detached: true,
    stdio: ['ignore', log.fd, log.fd, 'ipc'],
  });
  await log.close();
  const outcome = waitForServing(child, START_WAIT_MS);
  const pid = child.pid;
  if (pid !== undefined) await writeFile(files.pidFile, `${pid}\n`);
  const result = await outcome;
  if (result.kind === 'serving') {
    process.stdout.write(
      `Sluice started (pid ${pid}): inference ${config.inference.host}:${config.inference.port}, management ${config.management.host}:${config.management.port}, metrics ${config.metrics.host}:${config.metrics.port}\nLogs: ${files.logFile}. Stop it with: npx sluice stop\n`,
    );
    return 0;
  }
  if (result.kind === 'timeout') {
    process.stderr.write(`Sluice (pid ${pid}) did not report serving within ${START_WAIT_MS / 1000} s; see ${files.logFile}, and stop it with sluice stop\n`);
    return 1;
  }
  await rm(files.pidFile, { force: true });
  if (result.code === 0) {
    process.stderr.write(`Sluice was stopped during start-up (by sluice stop or a signal); see ${files.logFile}\n`);
    return 1;
  }
  const cause = await lastLoggedError(files.logFile, logStart);
  process.stderr.write(`Sluice exited during start-up (${exitText(result.code, result.signal)}); see ${files.logFile}\n${cause === undefined ? '' : `Last error: ${cause}\n`}`);
  return 1;
}

/** Sends SIGTERM to the background server and waits for it to exit. */
export async function stopBackground(cwd: string, waitMs: number): Promise<number> {
  const files = runFiles(cwd);
  const pid = await readPid(files.pidFile);
  if (pid === undefined || !alive(pid)) {
    await rm(files.pidFile, { force: true });
    process.stderr.write('No Sluice server started with sluice start runs here.\n');
    return 1;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + waitMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid)) {
    process.stderr.write(`Sluice (pid ${pid}) is still draining after ${waitMs / 1000} s.\n`);
    return 1;
  }
  await rm(files.pidFile, { force: true });
  process.stdout.write(`Sluice (pid ${pid}) stopped.\n`);
  return 0;
}
