import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/common/package-root.js';
import { runCli, startServerProcess, type ServerProcess } from '../support/cli-process.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';

/** The config's `shutdownTimeoutMs`: what bounds the stop of a start-up that never ends. */
const SHUTDOWN_TIMEOUT_MS = 500;
/** Longer than an interrupted start-up takes to exit (the shutdown timeout, then at most 2 s of lingering). */
const EXIT_LIMIT_MS = 10_000;
const TEST_TIMEOUT_MS = 30_000;

/** The executor's load says on stdout that it began, as a JSON line, so a test knows start-up is under way. */
const LOAD_BEGAN = "console.log(JSON.stringify({ msg: 'model load began' }));";
/** An executor whose load never settles, holding a timer as a real stuck load would hold a socket. */
const NEVER_LOADS = `export default { register(c) { c.executor({ name: 'stuck', load: () => { ${LOAD_BEGAN} return new Promise(() => { setInterval(() => {}, 60_000); }); } }); } };\n`;
/** An executor whose load fails only once the process receives SIGINT, so start-up goes on after the signal. */
const LOADS_UNTIL_SIGINT =
  `export default { register(c) { c.executor({ name: 'stuck', load: () => { ${LOAD_BEGAN} return new Promise((_, reject) => { ` +
  "const busy = setInterval(() => {}, 60_000); process.once('SIGINT', () => { clearInterval(busy); reject(new Error('load given up')); }); }); } }); } };\n";

/** The exit code of `server`, or 'still running' (and the process killed) when it has not exited within `ms`. */
async function exitWithin(server: ServerProcess, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => {
      resolve('still running');
    }, ms);
  });
  const outcome = await Promise.race([server.exited, late]);
  clearTimeout(timer);
  if (outcome === 'still running') server.child.kill('SIGKILL');
  return outcome;
}

/** Resolves once `file` exists and contains `text`; rejects after `ms`. */
async function waitForText(file: string, text: string, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const content = await readFile(file, 'utf8').catch(() => '');
    if (content.includes(text)) return content;
    if (Date.now() > deadline) throw new Error(`${file} did not come to contain ${text} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a signal while sluice start is still starting', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const leftovers: number[] = [];

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-cli-'));
    await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, 'model-store', 'iris'), { recursive: true });
    const manifest = join(dir, 'model-store', 'iris', 'model.yaml');
    await writeFile(manifest, `${await readFile(manifest, 'utf8')}executor: stuck\n`);
  });
  afterEach(async () => {
    for (const pid of leftovers.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await cleanup();
  });

  /** Writes `sluice.yaml` (ephemeral ports, the `stuck` plugin from `source`) into the test's folder. */
  async function writeConfig(source: string): Promise<string> {
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'executor', name: 'stuck' }] }, source);
    const file = join(dir, 'sluice.yaml');
    const lines = [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      'modelStore: ./model-store',
      'snapshot: { file: ./state/snapshot.json }',
      `shutdownTimeoutMs: ${SHUTDOWN_TIMEOUT_MS}`,
      'plugins: [{ path: ./stuck }]',
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('stops a start-up stuck on a model load at one SIGTERM: exits 0 within the shutdown timeout, saying start-up was interrupted', async () => {
    const server = startServerProcess(['--config', await writeConfig(NEVER_LOADS)], dir);
    await server.waitForLog((l) => l['msg'] === 'model load began');
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, EXIT_LIMIT_MS)).toBe(0);
    expect(server.lines).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'start-up interrupted by a signal: stopping what has started', signal: 'SIGTERM', timeoutMs: SHUTDOWN_TIMEOUT_MS }),
    );
    expect(server.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'start-up did not end within shutdownTimeoutMs: exiting without waiting for it', timeoutMs: SHUTDOWN_TIMEOUT_MS }),
    );
  }, TEST_TIMEOUT_MS);

  it('stops what a start-up that goes on after SIGINT started, and never announces serving', async () => {
    const server = startServerProcess(['--config', await writeConfig(LOADS_UNTIL_SIGINT)], dir);
    await server.waitForLog((l) => l['msg'] === 'model load began');
    server.child.kill('SIGINT');
    expect(await exitWithin(server, EXIT_LIMIT_MS)).toBe(0);
    const messages = server.lines.map((l) => (l as { msg: unknown }).msg);
    expect(messages).toContain('start-up interrupted by a signal: stopping what has started');
    expect(messages).not.toContain('Sluice is serving');
    expect(server.lines).toContainEqual(expect.objectContaining({ msg: 'stopped', drained: true }));
  }, TEST_TIMEOUT_MS);

  it('lets sluice stop end a background server that is still starting', async () => {
    await writeConfig(NEVER_LOADS);
    const logFile = join(dir, '.sluice', 'sluice.log');
    const started = runCli(['start'], dir, {}, TEST_TIMEOUT_MS);
    await waitForText(logFile, 'model load began', EXIT_LIMIT_MS);
    const pid = Number(await readFile(join(dir, '.sluice', 'sluice.pid'), 'utf8'));
    leftovers.push(pid);
    expect(await runCli(['stop'], dir, {}, TEST_TIMEOUT_MS)).toEqual({ code: 0, stdout: `Sluice (pid ${pid}) stopped.\n`, stderr: '' });
    expect(await started).toEqual({ code: 1, stdout: '', stderr: `Sluice was stopped during start-up (by sluice stop or a signal); see ${logFile}\n` });
  }, TEST_TIMEOUT_MS);
});
