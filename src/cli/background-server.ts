import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makePrivateDirectory } from '../sdk/files/private-directory.js';
import type { SluiceConfig } from '../config/index.js';
import { lookUpBackgroundServer, removeRunFiles, writeRunFiles } from './background-lookup.js';
import { UsageError } from './cli-errors.js';
import { commandLine, configDirectoryOf, runFiles, type RunFiles } from './run-files.js';
import { takeStartLock, type StartLock } from './start-lock.js';
import { backgroundServerArgs } from './start-flags.js';
import { waitForServing } from './serving-notice.js';
import { startErrorReport } from './start-log.js';

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `killed by ${signal}`;
  return code === null ? 'could not be started' : `exit status ${code}`;
}

/**
 * Starts `sluice start --foreground` as a detached process logging JSON lines (whatever `logFormat` says) to
 * `.sluice/sluice.log` beside the config file (`configFile`, as `--config` named it; see {@link runFiles}), and waits (at most `startTimeoutMs`) until that process itself reports
 * over IPC that every port listens; another server answering on the same ports does not count. The pid goes
 * to `.sluice/sluice.pid` and, with the shutdown timeout, to `.sluice/sluice.run.json` for `sluice stop`. A
 * server of the same config folder still running refuses the start (status 2), and so does another
 * `sluice start` of that folder still starting one (it holds `.sluice/sluice.start.lock`, created exclusively
 * and removed once its start has ended, however it ended; one left by a start that is gone is taken over by
 * one start only, see {@link takeStartLock}); run files of one that is gone are replaced. A child that exits first fails the start: status 1, run files removed, the errors it logged
 * during start-up quoted (or, when it exited 0, word that it was stopped). A `.sluice` directory that cannot
 * be created is a `sluice:` line naming it and status 1.
 */
export async function startInBackground(config: SluiceConfig, args: readonly string[], cwd: string, configFile: string | undefined): Promise<number> {
  const files = runFiles(configDirectoryOf(cwd, configFile));
  const stopHint = commandLine('stop', configFile);
  let lock: StartLock;
  try {
    // 0700: token-auth keeps its keys in the same folder.
    await makePrivateDirectory(files.dir);
    lock = await takeStartLock(files.lockFile);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `sluice: cannot create ${files.dir} for the server's pid and log files (${reason}); start from a folder where it can be created (it lies beside the config file, or in the working directory without one), or use --foreground\n`,
    );
    return 1;
  }
  if (lock.kind === 'held') {
    const holder = lock.pid === undefined ? 'another sluice start' : `another sluice start (pid ${lock.pid})`;
    throw new UsageError(
      `${holder} is starting a server for this config right now; wait for it, then see ${commandLine('status', configFile)} (if no sluice start runs, remove ${files.lockFile})`,
    );
  }
  try {
    return await startLocked(config, args, cwd, configFile, files, stopHint);
  } finally {
    await lock.release();
  }
}

/** {@link startInBackground} once it holds the config folder's start lock. */
async function startLocked(config: SluiceConfig, args: readonly string[], cwd: string, configFile: string | undefined, files: RunFiles, stopHint: string): Promise<number> {
  const existing = await lookUpBackgroundServer(files);
  if (existing.kind === 'running') throw new UsageError(`Sluice already runs here (pid ${existing.pid}); stop it with ${stopHint}`);
  const log = await open(files.logFile, 'a');
  const logStart = (await log.stat()).size;
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'start', ...backgroundServerArgs(args), '--foreground'], {
    cwd,
    detached: true,
    stdio: ['ignore', log.fd, log.fd, 'ipc'],
  });
  await log.close();
  const outcome = waitForServing(child, config.startTimeoutMs);
  const pid = child.pid;
  // `sluice stop` waits for the drain delay, then the drain: the record's bound covers both.
  if (pid !== undefined) await writeRunFiles(files, { pid, shutdownTimeoutMs: config.drainDelayMs + config.shutdownTimeoutMs });
  const result = await outcome;
  if (result.kind === 'serving') {
    process.stdout.write(
      `Sluice started (pid ${pid}): inference ${config.inference.host}:${config.inference.port}, management ${config.management.host}:${config.management.port}, metrics ${config.metrics.host}:${config.metrics.port}\nLogs: ${files.logFile}. Stop it with: npx ${stopHint}\n`,
    );
    return 0;
  }
  if (result.kind === 'timeout') {
    process.stderr.write(`Sluice (pid ${pid}) did not report serving within startTimeoutMs (${config.startTimeoutMs / 1000} s); it may still be loading its models: see ${files.logFile}, and stop it with ${stopHint}, or raise startTimeoutMs (SLUICE_START_TIMEOUT_MS)\n`);
    return 1;
  }
  await removeRunFiles(files);
  if (result.code === 0) {
    process.stderr.write(`Sluice was stopped during start-up (by sluice stop or a signal); see ${files.logFile}\n`);
    return 1;
  }
  const report = await startErrorReport(files.logFile, logStart);
  const quoted = report.length === 0 ? '' : `Errors it logged:\n${report.join('\n')}\n`;
  process.stderr.write(`Sluice exited during start-up (${exitText(result.code, result.signal)}); see ${files.logFile}\n${quoted}`);
  return 1;
}
