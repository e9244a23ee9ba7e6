import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { runCli, startServerProcess, type ServerProcess } from '../support/cli-process.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';

/** The config's `shutdownTimeoutMs`: what bounds the stop of a start-up that never ends. */
const SHUTDOWN_TIMEOUT_MS = 500;
/** Longer than an interrupted start-up takes to exit (the shutdown timeout, then at most 2 s of lingering). */
const EXIT_LIMIT_MS = 10_000;
/**
 * The shutdown timeout of the tests that look at what giving up a start-up stops: room, on a busy machine, for
 * that stop (ports, models, plugins, the telemetry flush) to finish within it.
 */
const GIVE_UP_TIMEOUT_MS = 3000;
/** Longer than such a start-up takes to exit: twice {@link GIVE_UP_TIMEOUT_MS}, then at most 2 s of lingering. */
const GIVE_UP_EXIT_LIMIT_MS = 20_000;
const TEST_TIMEOUT_MS = 30_000;
/** Room, on a busy machine, for a background server to start Node, load its plugins and reach its first model load. */
const BACKGROUND_START_LIMIT_MS = 30_000;

/** The executor's load says on stdout that it began, as a JSON line, so a test knows start-up is under way. */
const LOAD_BEGAN = "console.log(JSON.stringify({ msg: 'model load began' }));";
/** Its `onShutdown` says on stdout that it ran. */
const SHUT_DOWN = "c.onShutdown(() => { console.log(JSON.stringify({ msg: 'plugin shut down' })); });";
/** An executor whose load never settles, holding a timer as a real stuck load would hold a socket. */
const NEVER_LOADS = `export default { register(c) { ${SHUT_DOWN} c.executor({ name: 'stuck', load: () => { ${LOAD_BEGAN} return new Promise(() => { setInterval(() => {}, 60_000); }); } }); } };\n`;
/** An auth provider whose serving() never settles (within a long `pluginLoadTimeoutMs`). */
const SERVING_NEVER_ENDS =
  "export default { register(c) { c.auth({ name: 'stuck', serving: () => new Promise(() => { setInterval(() => {}, 60_000); }), authenticate: async () => ({ subject: 'x', scopes: [] }) }); } };\n";
/** Ephemeral ports and a snapshot in the test's folder. */
const LISTENERS = [
  'inference: { port: 0 }',
  'management: { port: 0 }',
  'metrics: { port: 0 }',
  'grpc: { inference: { port: 0 }, management: { port: 0 } }',
  'modelStore: ./model-store',
  'snapshot: { file: ./state/snapshot.json }',
];
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
  async function writeConfig(source: string, shutdownTimeoutMs = SHUTDOWN_TIMEOUT_MS): Promise<string> {
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'executor', name: 'stuck' }] }, source);
    const file = join(dir, 'sluice.yaml');
    const lines = [
      ...LISTENERS,
      `shutdownTimeoutMs: ${shutdownTimeoutMs}`,
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
      expect.objectContaining({ level: 'warn', msg: 'start-up did not end within shutdownTimeoutMs: giving it up, stopping what it had started', timeoutMs: SHUTDOWN_TIMEOUT_MS }),
    );
  }, TEST_TIMEOUT_MS);

  it("runs the plugins' onShutdown for a start-up it gives up on", async () => {
    const server = startServerProcess(['--config', await writeConfig(NEVER_LOADS, GIVE_UP_TIMEOUT_MS)], dir);
    await server.waitForLog((l) => l['msg'] === 'model load began');
    server.child.kill('SIGTERM');
    expect(await exitWithin(server, GIVE_UP_EXIT_LIMIT_MS)).toBe(0);
    // The plugin writes to stdout directly and the log through a buffer, so their order on stdout says nothing.
    const messages = server.lines.map((l) => (l as { msg: unknown }).msg);
    expect(messages).toEqual(expect.arrayContaining(['start-up did not end within shutdownTimeoutMs: giving it up, stopping what it had started', 'plugin shut down', 'stopped what the start-up had started']));
  }, TEST_TIMEOUT_MS);

  it('flushes the metrics to the OTLP collector for a start-up it gives up on', async () => {
    const posted: string[] = [];
    const collector = createServer((req, res) => {
      posted.push(`${req.method ?? ''} ${req.url ?? ''}`);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = collector.address() as AddressInfo;
      // Start-up stops at its last stage, with every port open: an auth provider's serving() that does not end in time.
      await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'auth', name: 'stuck' }] }, SERVING_NEVER_ENDS);
      const lines = [
        ...LISTENERS,
        'models: []',
        `shutdownTimeoutMs: ${GIVE_UP_TIMEOUT_MS}`,
        'pluginLoadTimeoutMs: 60000',
        'auth: { management: stuck }',
        'plugins: [{ path: ./stuck }]',
        `telemetry: { metricsExporter: otlp, otlpEndpoint: 'http://127.0.0.1:${port}', metricExportIntervalMs: 600000 }`,
      ];
      await writeFile(join(dir, 'sluice.yaml'), `${lines.join('\n')}\n`);
      const server = startServerProcess(['--config', join(dir, 'sluice.yaml')], dir);
      const inference = (await server.waitForLog((l) => l['msg'] === 'listening' && l['port'] === 'inference'))['url'] as string;
      await server.waitForLog((l) => l['msg'] === 'listening' && l['port'] === 'grpc-management');
      // An error answer, so the metrics hold a point to push.
      expect((await fetch(`${inference}/predictions/nowhere`, { method: 'POST', body: '[1]', headers: { 'content-type': 'application/json' } })).status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, GIVE_UP_EXIT_LIMIT_MS)).toBe(0);
      expect(posted).toEqual(['POST /v1/metrics']);
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
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
    const started = runCli(['start'], dir, {}, BACKGROUND_START_LIMIT_MS + TEST_TIMEOUT_MS);
    await waitForText(logFile, 'model load began', BACKGROUND_START_LIMIT_MS);
    const pid = Number(await readFile(join(dir, '.sluice', 'sluice.pid'), 'utf8'));
    leftovers.push(pid);
    expect(await runCli(['stop'], dir, {}, TEST_TIMEOUT_MS)).toEqual({ code: 0, stdout: `Sluice (pid ${pid}) stopped.\n`, stderr: '' });
    expect(await started).toEqual({ code: 1, stdout: '', stderr: `Sluice was stopped during start-up (by sluice stop or a signal); see ${logFile}\n` });
  }, BACKGROUND_START_LIMIT_MS + 2 * TEST_TIMEOUT_MS);
});
