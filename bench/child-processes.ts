import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Children started through {@link spawnTracked} that have not exited yet. */
const live = new Set<ChildProcess>();
/** Clean-ups (temporary directories) still to run if the benchmark is interrupted. */
const pendingCleanups = new Set<() => Promise<void>>();
let handlersInstalled = false;

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // Last resort on any exit, including an uncaught error: nothing may outlive the benchmark.
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers the benchmark started\n`);
      void Promise.allSettled([...live].map((child) => stopChild(child, 3000)))
        .then(() => Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup())))
        .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

/**
 * Spawns a child the benchmark owns: it is stopped when the benchmark is interrupted (SIGINT, SIGTERM)
 * and killed when the benchmark exits for any other reason.
 */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  installHandlers();
  const child = spawn(command, args, options);
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Registers a clean-up to run if the benchmark is interrupted; the returned function runs it now instead. */
export function cleanupOnInterrupt(cleanup: () => Promise<void>): () => Promise<void> {
  installHandlers();
  pendingCleanups.add(cleanup);
  return async () => {
    pendingCleanups.delete(cleanup);
    await cleanup();
  };
}

/** Sends SIGTERM and waits for the exit; SIGKILL when the child has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The first value `match` finds in `lines`; undefined when it finds none. */
function firstMatch<T>(lines: readonly string[], match: (line: string) => T | undefined): T | undefined {
  for (const line of lines) {
    const found = match(line);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Resolves with the first value `match` finds in a line of the child's stdout; rejects when the child
 * exits first or after `timeoutMs`. What the child writes afterwards is read and dropped undecoded: a
 * server's access log, read in the load generator's process, must cost that process as little as it can.
 */
export function waitForStdoutLine<T>(child: ChildProcess, match: (line: string) => T | undefined, timeoutMs = 120_000): Promise<T> {
  const stdout = child.stdout;
  if (stdout === null) return Promise.reject(new Error('the child has no stdout pipe'));
  return new Promise((resolve, reject) => {
    let pending = '';
    let settled = false;
    const decoder = new StringDecoder('utf8');
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      stdout.off('data', onData);
      // Flowing with no listener: later output is read (the child never blocks on a full pipe) and dropped.
      stdout.resume();
      finish();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      settle(() => {
        reject(new Error(`the server exited (${signal ?? String(code)}) before it was ready`));
      });
    };
    const timer = setTimeout(() => {
      settle(() => {
        reject(new Error(`the server was not ready after ${timeoutMs} ms`));
      });
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      const lines = (pending + decoder.write(chunk)).split('\n');
      pending = lines.pop() ?? '';
      const found = firstMatch(lines, match);
      if (found !== undefined) {
        settle(() => {
          resolve(found);
        });
      }
    };
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/** The last lines of the file at `path`, for an error message: empty when it cannot be read or is empty. */
function lastLines(path: string, maxChars = 2_000): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trimEnd();
  } catch {
    return '';
  }
  return text === '' ? '' : `; its output ended with:\n${text.slice(-maxChars)}`;
}

/**
 * Resolves with the first value `match` finds in a line of the file `path`, which `child` (a process, or
 * anything that emits its `exit`) writes its
 * output to; rejects, with the file's last lines, when the child exits first or after `timeoutMs`. The
 * file is read every 20 ms until then, and never after.
 */
export function waitForFileLine<T>(child: EventEmitter, path: string, match: (line: string) => T | undefined, timeoutMs = 120_000): Promise<T> {
  /** What `match` finds in the file's whole lines so far (the last piece may be a line still being written). */
  const scan = (): T | undefined => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    const lines = text.split('\n');
    lines.pop();
    return firstMatch(lines, match);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      child.off('exit', onExit);
      finish();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      // It may have written the line since the last look, and then exited.
      const found = scan();
      settle(() => {
        if (found !== undefined) resolve(found);
        else reject(new Error(`the server exited (${signal ?? String(code)}) before it was ready${lastLines(path)}`));
      });
    };
    const timer = setTimeout(() => {
      settle(() => {
        reject(new Error(`the server was not ready after ${timeoutMs} ms${lastLines(path)}`));
      });
    }, timeoutMs);
    const poll = setInterval(() => {
      const found = scan();
      if (found !== undefined) {
        settle(() => {
          resolve(found);
        });
      }
    }, 20);
    child.once('exit', onExit);
  });
}
