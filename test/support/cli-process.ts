import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-files/package-root.js';

/** The built CLI entry point (`npm run test:e2e` builds first). */
export const CLI_MAIN = join(packageRoot(), 'dist', 'src', 'main.js');

/**
 * Runs `sluice <args>` to completion, with only `env` (and PATH) set. A run still going after `timeoutMs` is
 * killed, and its `code` is null, so a hang never passes for an exit status.
 */
export function runCli(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { cwd, env: { PATH: process.env['PATH'], ...env }, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A foreground `sluice start` child whose JSON log lines are collected. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly lines: unknown[];
  /** Resolves with the first log line `match` accepts. */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** Starts `sluice start --foreground <args>` in `cwd`, with only `env` (and PATH) set. */
export function startServerProcess(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): ServerProcess {
  const child = spawn(process.execPath, [CLI_MAIN, 'start', '--foreground', ...args], { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    resolve(code);
  }));
  return {
    child,
    lines,
    exited,
    waitForLog: (match) => {
      const found = lines.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

/** Stops `server` with SIGTERM and waits for it to exit, when there is one still running (a test's clean-up). */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (server === undefined || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Ports {@link freePort} has handed out in this process: never handed out twice. */
const handedOut = new Set<number>();

/** A TCP port the system picked, free until a moment ago. */
async function systemPickedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/**
 * A TCP port that was free a moment ago and that no earlier call in this process returned. The system may
 * pick a port it has just freed again, so a test asking for several listeners' ports one after the other
 * could otherwise be given the same port twice, and its server refuse the configuration.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await systemPickedPort();
    if (port !== 0 && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no TCP port that was not handed out already: the system kept picking the same ones');
}
