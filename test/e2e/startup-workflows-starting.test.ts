import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { packageRoot } from '../../src/package-files/package-root.js';
import { loadConfig } from '../../src/config/index.js';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { startServer, type SluiceServer } from '../../src/server/sluice-server.js';
import { standardOutputLogger } from '../../src/telemetry/logging/standard-output-log.js';
import { freePort } from '../support/cli-process.js';
import { Gate } from '../support/gate.js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, type JsonAnswer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** A TorchServe spec whose one model node `m` is the store's iris: registering it loads a model. */
const SPEC = 'models:\n  m:\n    url: iris.mar\ndag:\n  m: []\n';

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

const answered = (a: JsonAnswer): { status: number; retryAfter: string | null; body: unknown } => ({ status: a.status, retryAfter: a.headers.get('retry-after'), body: a.body });

const starting = (message: string): unknown => ({ status: 503, retryAfter: '1', body: expect.objectContaining({ code: 503, errorCode: 'SLUICE_SERVER_STARTING', message }) });

describe('a workflow asked for while start-up has not registered it yet', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-wf-starting-'));
    await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, 'model-store', 'iris'), { recursive: true });
    await writeWorkflowFile(dir, 'spec.yaml', SPEC);
  });
  afterEach(async () => {
    await cleanup();
  });

  it('answers 503 SLUICE_SERVER_STARTING with Retry-After, as a model does, and runs once registered', async () => {
    const runtime = new GatedLoadRuntime();
    runtime.gate.hold();
    const [inference, grpcInference] = [await freePort(), await freePort()];
    const config = loadConfig({
      cwd: dir,
      env: {},
      overrides: {
        inference: { port: inference },
        management: { port: 0 },
        metrics: { port: 0 },
        grpc: { inference: { host: '127.0.0.1', port: grpcInference }, management: { host: '127.0.0.1', port: 0 } },
        modelStore: join(dir, 'model-store'),
        workflowStore: join(dir, 'workflows'),
        models: ['iris'],
        workflows: ['spec'],
        snapshot: { enabled: false, file: join(dir, 'snapshot.json') },
        logLevel: 'silent',
        auth: { inference: 'none', management: 'none', metrics: 'none' },
      },
    });
    const url = `http://127.0.0.1:${inference}`;
    const client = grpcClient('torchserveInference', `127.0.0.1:${grpcInference}`);
    const startingServer = startServer({ config, logger: standardOutputLogger('silent', 'json'), runtime, configDirectory: dir });
    let server: SluiceServer | undefined;
    try {
      // The start-up models load: a model and a workflow not registered yet are both told to retry.
      await runtime.gate.untilArrived(1);
      expect(answered(await requestJson(`${url}/predictions/iris`, { method: 'POST', json: SETOSA }))).toEqual(
        starting('model `iris` is not registered yet: the server is still loading its models; retry shortly, or on another replica'),
      );
      const workflowStarting = starting('workflow `spec` is not registered yet: the server is still loading its models and workflows; retry shortly, or on another replica');
      expect(answered(await requestJson(`${url}/wfpredict/spec`, { method: 'POST', json: SETOSA }))).toEqual(workflowStarting);

      // The models are loaded; the workflow's own model loads as the workflow registers.
      runtime.gate.release();
      runtime.gate.hold();
      await runtime.gate.untilArrived(2);
      expect(answered(await requestJson(`${url}/wfpredict/spec`, { method: 'POST', json: SETOSA }))).toEqual(workflowStarting);
      expect(answered(await requestJson(`${url}/v2/models/spec/infer`, { method: 'POST', json: { inputs: [] } }))).toMatchObject({
        status: 503,
        retryAfter: '1',
        body: { errorCode: 'SLUICE_SERVER_STARTING' },
      });
      const grpc = await callError(unary(client, 'Predictions', { model_name: 'spec', input: { data: Buffer.from(JSON.stringify(SETOSA)) } }));
      expect(grpc).toMatchObject({ code: status.UNAVAILABLE, errorCode: 'SLUICE_SERVER_STARTING' });

      runtime.gate.release();
      server = await startingServer;
      expect(await requestJson(`${url}/wfpredict/spec`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
      // Once start-up has ended, a workflow nobody registered is what it is: not found.
      expect(await requestJson(`${url}/wfpredict/nowhere`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_WORKFLOW_NOT_FOUND' } });
    } finally {
      client.close();
      runtime.gate.release();
      server ??= await startingServer.catch(() => undefined);
      await server?.stop();
    }
  });
});
