import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { freePort, runCli, startServerProcess } from '../support/cli-process.js';
import { writeGarbageModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer } from '../support/test-server.js';
import { permissionsOf } from '../support/file-mode.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** Writes a config with ephemeral ports and quiet logs into `dir`. */
async function writeConfig(dir: string, ports: { inference: number; management: number; metrics: number } = { inference: 0, management: 0, metrics: 0 }): Promise<string> {
  const file = join(dir, 'sluice.yaml');
  await writeFile(
    file,
    [
      `inference: { port: ${ports.inference} }`,
      `management: { port: ${ports.management} }`,
      `metrics: { port: ${ports.metrics} }`,
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      'modelStore: ./model-store',
      'snapshot: { file: ./state/snapshot.json }',
      '',
    ].join('\n'),
  );
  return file;
}

/** An HTTP server on `port` that answers every request 200 `{"status":"Healthy"}`, as a running Sluice's /ping does. */
async function healthyServer(port: number): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"Healthy"}');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('sluice command line', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-cli-'));
    await mkdir(join(dir, 'model-store'));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('prints help with --help', async () => {
    const { code, stdout } = await runCli(['--help'], dir);
    expect(code).toBe(0);
    expect(stdout).toContain('sluice start [options]');
    expect(stdout).toContain('sluice archive <model-dir | workflow-dir>');
  });

  it('refuses an unknown flag with exit status 2 and a hint', async () => {
    const { code, stderr } = await runCli(['start', '--port', '1'], dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^sluice: Unknown option '--port'.*; see sluice --help\n$/);
  });

  it('refuses an invalid config with the key named, before starting anything', async () => {
    await writeFile(join(dir, 'sluice.yaml'), 'inference: { port: 70000 }\n');
    const { code, stderr } = await runCli(['start', '--foreground'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain('sluice.yaml: `inference.port` must be <= 65535 (got 70000)');
  });

  it('packs a model directory into an archive the server loads', async () => {
    const { code, stdout } = await runCli(['archive', join(packageRoot(), 'model-store', 'iris'), '-o', join(dir, 'model-store', 'iris.sluice')], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Packed iris 1\.0 \(3 files, \d+ bytes\) into /);
    const t = await startTestServer({ dir, demoModels: [] });
    try {
      expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
    } finally {
      await t.server.stop();
    }
  });

  it('packs a workflow directory into a workflow archive', async () => {
    const workflowDir = join(dir, 'second-opinion');
    await mkdir(workflowDir);
    await copyFile(join(packageRoot(), 'workflows', 'iris-second-opinion.yaml'), join(workflowDir, 'workflow.yaml'));
    const { code, stdout } = await runCli(['archive', workflowDir], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Packed iris-second-opinion 1\.0 \(1 files, \d+ bytes\) into .*iris-second-opinion-1\.0\.sluice\n$/);
    expect(existsSync(join(dir, 'iris-second-opinion-1.0.sluice'))).toBe(true);
  });

  it('serves in the foreground, skips a model that fails to load, and exits 0 on SIGTERM', async () => {
    await copyDemoModels(join(dir, 'model-store'), ['iris']);
    await addStoreModel(join(dir, 'model-store'), 'broken', writeGarbageModel, { name: 'broken', version: '1' });
    const config = await writeConfig(dir);
    const server = startServerProcess(['--config', config], dir);
    const failure = await server.waitForLog((l) => l['msg'] === 'model failed to load; the other models still start');
    expect(failure).toMatchObject({ level: 'error', source: 'broken', reason: expect.stringContaining('garbage.onnx') as unknown });
    const listening = await server.waitForLog((l) => l['msg'] === 'listening' && l['port'] === 'inference');
    const inference = listening['url'] as string;
    expect(await requestJson(`${inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200 });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.lines).toContainEqual(expect.objectContaining({ msg: 'stopped', drained: true }));
  });

  it('exits 0 on SIGINT too', async () => {
    const server = startServerProcess(['--config', await writeConfig(dir)], dir);
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('starts in the background, answers /ping, and stops with sluice stop', async () => {
    await copyDemoModels(join(dir, 'model-store'), ['iris']);
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    await writeConfig(dir, ports);
    const started = await runCli(['start'], dir);
    expect(started).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Sluice started \(pid \d+\)/) as unknown });
    expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(true);
    expect(await requestJson(`http://127.0.0.1:${ports.inference}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    const stopped = await runCli(['stop'], dir);
    expect(stopped).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Sluice \(pid \d+\) stopped\.\n$/) as unknown });
    expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(false);
    await expect(fetch(`http://127.0.0.1:${ports.inference}/ping`)).rejects.toThrow();
  }, 30_000);

  it('makes .sluice, where token-auth keeps its keys by default, with mode 0700 on a background start', async () => {
    await copyDemoModels(join(dir, 'model-store'), ['iris']);
    await writeConfig(dir);
    expect(await runCli(['start'], dir)).toMatchObject({ code: 0 });
    try {
      expect(await permissionsOf(join(dir, '.sluice'))).toBe('700');
    } finally {
      expect(await runCli(['stop'], dir)).toMatchObject({ code: 0 });
    }
  }, 30_000);

  it('refuses a background start while another sluice start of the same config holds the start lock, and leaves the lock alone', async () => {
    await writeConfig(dir);
    await mkdir(join(dir, '.sluice'));
    const lockFile = join(dir, '.sluice', 'sluice.start.lock');
    // This test's process is alive: it stands for a sluice start still starting.
    await writeFile(lockFile, `${process.pid}\n`);
    expect(await runCli(['start'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `sluice: another sluice start (pid ${process.pid}) is starting a server for this config right now; wait for it, then see sluice status (if no sluice start runs, remove ${lockFile})\n`,
    });
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(false);
  });

  it('lets one of two sluice start racing for one config start a server, and refuses the other', async () => {
    await writeConfig(dir);
    const results = await Promise.all([runCli(['start'], dir), runCli(['start'], dir)]);
    const pids = results.flatMap((r) => /^Sluice started \(pid (\d+)\)/.exec(r.stdout)?.[1] ?? []).map(Number);
    try {
      expect(results.map((r) => r.code).sort()).toEqual([0, 2]);
      expect(results.find((r) => r.code === 2)?.stderr).toMatch(/^sluice: (another sluice start \(pid \d+\) is starting a server for this config right now|Sluice already runs here \(pid \d+\))/);
      expect(existsSync(join(dir, '.sluice', 'sluice.start.lock'))).toBe(false);
      expect(await runCli(['stop'], dir)).toMatchObject({ code: 0 });
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Stopped already.
        }
      }
    }
  }, 30_000);

  it('fails a background start whose own server cannot listen, though another one answers /ping on its port', async () => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    const other = await healthyServer(ports.inference);
    try {
      await writeConfig(dir, ports);
      const started = await runCli(['start'], dir);
      expect(started).toEqual({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(
          new RegExp(
            `^Sluice exited during start-up \\(exit status 1\\); see ${join(dir, '.sluice', 'sluice.log')}\\nErrors it logged:\\n(.*\\n)*` +
              `sluice: sluice\\.yaml: \`inference\\.port\`: port ${ports.inference} is already in use on 127\\.0\\.0\\.1; stop what listens there, or choose another port \\(0 picks a free one\\) \\[SLUICE_CONFIG_INVALID\\]\\n`,
          ),
        ) as unknown,
      });
      expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(false);
      expect(existsSync(join(dir, '.sluice', 'sluice.start.lock'))).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  }, 30_000);

  it('stops, from another folder, the background server started with --config, finding it by its config file', async () => {
    await mkdir(join(dir, 'conf'));
    await mkdir(join(dir, 'conf', 'model-store'));
    await mkdir(join(dir, 'elsewhere'));
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    await writeConfig(join(dir, 'conf'), ports);
    expect(await runCli(['start', '--config', 'conf/sluice.yaml'], dir)).toMatchObject({ code: 0 });
    expect(existsSync(join(dir, 'conf', '.sluice', 'sluice.pid'))).toBe(true);
    const stopped = await runCli(['stop', '--config', '../conf/sluice.yaml'], join(dir, 'elsewhere'));
    expect(stopped).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Sluice \(pid \d+\) stopped\.\n$/) as unknown });
    await expect(fetch(`http://127.0.0.1:${ports.inference}/ping`)).rejects.toThrow();
  }, 30_000);

  it('says whether the background server of a config file runs: status 0 while it does, 3 once stopped', async () => {
    await writeConfig(dir, { inference: await freePort(), management: await freePort(), metrics: await freePort() });
    const started = await runCli(['start'], dir);
    const pid = /pid (\d+)/.exec(started.stdout)?.[1];
    expect(await runCli(['status', '--config', join(dir, 'sluice.yaml')], '/')).toEqual({ code: 0, stdout: `Sluice (pid ${pid}) runs; log: ${join(dir, '.sluice', 'sluice.log')}\n`, stderr: '' });
    expect(await runCli(['stop'], dir)).toMatchObject({ code: 0 });
    expect(await runCli(['status'], dir)).toEqual({
      code: 3,
      stdout: `No Sluice server started with sluice start runs here: there is no ${join(dir, '.sluice', 'sluice.pid')}. A server started with --config FILE is found with --config FILE.\n`,
      stderr: '',
    });
  }, 30_000);

  it('never signals an unrelated process a stale pid file names, and removes the pid file', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await mkdir(join(dir, '.sluice'));
      await writeFile(join(dir, '.sluice', 'sluice.pid'), `${other.pid ?? 0}\n`);
      expect(await runCli(['stop'], dir)).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `No Sluice server started with sluice start runs here: ${join(dir, '.sluice', 'sluice.pid')} named pid ${other.pid ?? 0}, which is no longer a Sluice server ` +
          '(the stale pid file was removed). A server started with --config FILE is found with --config FILE.\n',
      });
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('quotes the problem report a background server wrote to stderr when it failed during start-up', async () => {
    await writeConfig(dir);
    expect(await runCli(['start'], dir, { SLUICE_AUTH_MANAGEMENT: 'nobody' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Sluice exited during start-up (exit status 1); see ${join(dir, '.sluice', 'sluice.log')}\nErrors it logged:\n` +
        'sluice: SLUICE_AUTH_MANAGEMENT: `auth.management` names "nobody", which no auth plugin provides (known: none, jwt-auth, token-auth); ' +
        'name one of those, or load the plugin that provides it [SLUICE_CONFIG_INVALID]\n',
    });
  }, 30_000);

  it('names the key and the variable that set it when a port of a foreground start is in use', async () => {
    const taken = await healthyServer(0);
    try {
      const { port } = taken.address() as AddressInfo;
      await writeConfig(dir);
      expect(await runCli(['start', '--foreground'], dir, { SLUICE_METRICS_PORT: String(port), SLUICE_LOG_LEVEL: 'silent' })).toEqual({
        code: 1,
        stdout: '',
        stderr: `sluice: SLUICE_METRICS_PORT: \`metrics.port\`: port ${port} is already in use on 127.0.0.1; stop what listens there, or choose another port (0 picks a free one) [SLUICE_CONFIG_INVALID]\n`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 30_000);

  it('prints help for start --help instead of refusing the flag', async () => {
    const { code, stdout } = await runCli(['start', '--help'], dir);
    expect(code).toBe(0);
    expect(stdout).toContain('sluice stop [--config FILE]');
  });
});
