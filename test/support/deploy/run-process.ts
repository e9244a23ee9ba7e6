import { spawn } from 'node:child_process';

/** How a program ended and what it printed. `code` is null when it was killed (its time ran out, say). */
export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` with `args` to its end, with the environment of this process plus `env`. Killed after
 * `timeoutMs`, so that a program that hangs fails its test instead of holding it.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string; readonly timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

/** `result`'s stdout, or an error quoting what it printed when it did not exit 0. */
export function succeeded(what: string, result: ProcessResult): string {
  if (result.code === 0) return result.stdout;
  throw new Error(`${what} exited ${String(result.code)}:\n${result.stderr}${result.stdout}`);
}
