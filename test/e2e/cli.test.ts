import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/common/package-root.js';
import { freePort, runCli, startServerProcess } from '../support/cli-process.js';
import { writeGarbageModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer } from '../support/test-server.js';

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

  it('fails a background start whose own server cannot listen, though another one answers /ping on its port', async () => {
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort() };
    const other = await healthyServer(ports.inference);
    try {
      await writeConfig(dir, ports);
      const started = await runCli(['start'], dir);
      expect(started).toEqual({
        code: 1,
        stdout: '',
        stderr: `Sluice exited during start-up (exit status 1); see ${join(dir, '.sluice', 'sluice.log')}\nLast error: Sluice could not start: listen EADDRINUSE: address already in use 127.0.0.1:${ports.inference}\n`,
      });
      expect(existsSync(join(dir, '.sluice', 'sluice.pid'))).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  }, 30_000);
});
