import { spawn } from 'node:child_process';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SluiceConfig } from '../config/index.js';
import { UsageError } from './cli-errors.js';
import { runFiles } from './run-files.js';

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

async function pingable(config: SluiceConfig): Promise<boolean> {
  const host = config.inference.host.includes(':') ? `[${config.inference.host}]` : config.inference.host;
  try {
    const res = await fetch(`http://${host}:${config.inference.port}/ping`, { signal: AbortSignal.timeout(1000) });
    return res.status === 200 || res.status === 500;
  } catch {
    return false;
  }
}

/**
 * Starts `sluice start --foreground` as a detached process logging to `.sluice/sluice.log`, waits until
 * it answers /ping, and returns. The pid goes to `.sluice/sluice.pid` for `sluice stop`.
 */
export async function startInBackground(config: SluiceConfig, args: readonly string[], cwd: string): Promise<number> {
  const files = runFiles(cwd);
  const existing = await readPid(files.pidFile);
  if (existing !== undefined && alive(existing)) throw new UsageError(`Sluice already runs here (pid ${existing}); stop it with sluice stop`);
  await mkdir(files.dir, { recursive: true });
  const log = await open(files.logFile, 'a');
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'start', ...args, '--foreground'], {
    cwd,
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the server process');
  await writeFile(files.pidFile, `${pid}\n`);
  child.unref();
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (!alive(pid)) {
      await rm(files.pidFile, { force: true });
      process.stderr.write(`Sluice exited during start-up; see ${files.logFile}\n`);
      return 1;
    }
    if (await pingable(config)) {
      process.stdout.write(
        `Sluice started (pid ${pid}): inference ${config.inference.host}:${config.inference.port}, management ${config.management.host}:${config.management.port}, metrics ${config.metrics.host}:${config.metrics.port}\nLogs: ${files.logFile}. Stop it with: npx sluice stop\n`,
      );
      return 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  process.stderr.write(`Sluice did not answer /ping within ${START_WAIT_MS / 1000} s; see ${files.logFile}\n`);
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
