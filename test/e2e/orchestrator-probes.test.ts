import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { loadConfig } from '../../src/config/index.js';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { startServer, type SluiceServer } from '../../src/server/sluice-server.js';
import { standardOutputLogger } from '../../src/telemetry/logging/standard-output-log.js';
import { freePort, runCli, startServerProcess } from '../support/cli-process.js';
import { Gate } from '../support/gate.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** The real ONNX runtime whose loads wait at a gate the test opens. */
class GatedLoadRuntime implements ModelRuntime {
  readonly name = 'onnx';
  readonly gate = new Gate();
  private readonly inner = new OnnxRuntime();

  async load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    await this.gate.pass();
    return this.inner.load(modelPath, options);
  }
}

/** Status of a GET, or 0 when the connection is refused. */
function statusOf(url: string): Promise<number> {
  return fetch(url).then(
    (response) => response.status,
    () => 0,
  );
}

describe('an orchestrator’s view of a start-up', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-probes-'));
    await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, 'model-store', 'iris'), { recursive: true });
  });
  afterEach(async () => {
    await cleanup();
  });

  it('listens before the models load: liveness answers while they load, readiness and predictions only once they are loaded', async () => {
    const runtime = new GatedLoadRuntime();
    runtime.gate.hold();
    const [inference, grpcInference, grpcManagement] = [await freePort(), await freePort(), await freePort()];
    const config = loadConfig({
      cwd: dir,
      env: {},
      overrides: {
        inference: { port: inference },
        management: { port: 0 },
        metrics: { port: 0 },
        grpc: { inference: { host: '127.0.0.1', port: grpcInference }, management: { host: '127.0.0.1', port: grpcManagement } },
        modelStore: join(dir, 'model-store'),
        snapshot: { enabled: false, file: join(dir, 'snapshot.json') },
        logLevel: 'silent',
        auth: { inference: 'none', management: 'none', metrics: 'none' },
      },
    });
    const url = `http://127.0.0.1:${inference}`;
    const starting = startServer({ config, logger: standardOutputLogger('silent', 'json'), runtime, configDirectory: dir });
    let server: SluiceServer | undefined;
    try {
      await runtime.gate.untilArrived(1);
      const whileLoading = {
        live: await statusOf(`${url}/v2/health/live`),
        ping: await statusOf(`${url}/ping`),
        ready: await requestJson(`${url}/v2/health/ready`),
        prediction: await requestJson(`${url}/predictions/iris`, { method: 'POST', json: SETOSA }),
      };
      runtime.gate.release();
      server = await starting;
      const answered = (a: { status: number; body: unknown }): { status: number; body: unknown } => ({ status: a.status, body: a.body });
      expect({ ...whileLoading, ready: answered(whileLoading.ready), prediction: answered(whileLoading.prediction) }).toEqual({
        live: 200,
        ping: 200,
        ready: { status: 503, body: { ready: false } },
        // A model not loaded yet is no 404: a load balancer is told to retry elsewhere.
        prediction: {
          status: 503,
          body: expect.objectContaining({ code: 503, errorCode: 'SLUICE_SERVER_STARTING', message: 'model `iris` is not registered yet: the server is still loading its models; retry shortly, or on another replica' }) as unknown,
        },
      });
      expect(await requestJson(`${url}/v2/health/ready`)).toMatchObject({ status: 200, body: { ready: true } });
      expect(await requestJson(`${url}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
    } finally {
      runtime.gate.release();
      server ??= await starting.catch(() => undefined);
      await server?.stop();
    }
  });

  it('sluice start waits startTimeoutMs for a start-up, then exits 1 saying the server may still be loading', async () => {
    // An executor whose load never ends: start-up never reports serving.
    await writePluginFolder(
      join(dir, 'stuck'),
      { name: 'stuck', provides: [{ point: 'executor', name: 'stuck' }] },
      "export default { register(c) { c.executor({ name: 'stuck', load: () => new Promise(() => { setInterval(() => {}, 60_000); }) }); } };\n",
    );
    const manifest = join(dir, 'model-store', 'iris', 'model.yaml');
    await writeFile(manifest, `${await readFile(manifest, 'utf8')}executor: stuck\n`);
    const config = [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      'modelStore: ./model-store',
      'snapshot: { file: ./state/snapshot.json }',
      'shutdownTimeoutMs: 500',
      'startTimeoutMs: 1500',
      'plugins: [{ path: ./stuck }]',
    ];
    await writeFile(join(dir, 'sluice.yaml'), `${config.join('\n')}\n`);
    try {
      const started = await runCli(['start'], dir);
      expect({ code: started.code, stderr: started.stderr }).toEqual({
        code: 1,
        stderr: expect.stringMatching(/did not report serving within startTimeoutMs \(1\.5 s\); it may still be loading its models: .*raise startTimeoutMs \(SLUICE_START_TIMEOUT_MS\)\n$/) as unknown,
      });
    } finally {
      expect((await runCli(['stop'], dir)).code).toBe(0);
    }
  });
});

describe('a stop with a drain delay (drainDelayMs)', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-drain-delay-'));
    await mkdir(join(dir, 'model-store'));
    await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, 'model-store', 'iris'), { recursive: true });
  });
  afterEach(async () => {
    await cleanup();
  });

  it('on SIGTERM answers not-ready and keeps serving for the delay, then stops listening, drains and exits 0', async () => {
    const port = await freePort();
    const config = [
      `inference: { port: ${port} }`,
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { enabled: false }',
      'modelStore: ./model-store',
      'snapshot: { enabled: false }',
      // Long enough for the checks below on a busy machine; the test waits it out once.
      'drainDelayMs: 8000',
    ];
    await writeFile(join(dir, 'sluice.yaml'), `${config.join('\n')}\n`);
    const server = startServerProcess([], dir);
    try {
      await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
      const url = `http://127.0.0.1:${port}`;
      expect((await requestJson(`${url}/v2/health/ready`)).status).toBe(200);
      server.child.kill('SIGTERM');
      await server.waitForLog((l) => l['msg'] === 'stop asked: answering not-ready, still serving until the drain delay has passed');
      const duringDelay = {
        ready: (await requestJson(`${url}/v2/health/ready`)).body,
        live: await statusOf(`${url}/v2/health/live`),
        prediction: await requestJson(`${url}/predictions/iris`, { method: 'POST', json: SETOSA }).then((a) => ({ status: a.status, label: (a.body as { label?: unknown }).label })),
        closedYet: server.lines.some((l) => (l as { msg?: unknown }).msg === 'shutting down: no new requests, draining in-flight ones'),
      };
      expect(duringDelay).toEqual({ ready: { ready: false }, live: 200, prediction: { status: 200, label: 'setosa' }, closedYet: false });
      expect(await server.exited).toBe(0);
      expect(await statusOf(`${url}/v2/health/live`)).toBe(0);
      expect(server.lines).toContainEqual(expect.objectContaining({ msg: 'stopped', drained: true }));
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
