import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Client } from '@grpc/grpc-js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import { Gate } from '../support/gate.js';
import { grpcClient, unary } from '../support/grpc-clients.js';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** The ONNX runtime, whose loads of files named `slow.onnx` wait at a gate. */
class SlowLoadRuntime implements ModelRuntime {
  readonly name = 'onnx';
  readonly gate = new Gate();
  private readonly inner = new OnnxRuntime();

  async load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    if (modelPath.endsWith('slow.onnx')) await this.gate.pass();
    return this.inner.load(modelPath, options);
  }
}

describe('TorchServe management parameters over REST and gRPC', () => {
  let t: TestServer;
  let grpc: Client;
  const logs: string[] = [];
  const runtime = new SlowLoadRuntime();
  const manage = (path: string, method = 'GET'): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method });
  const warnings = (operation: string): unknown[] =>
    logs.map((l) => JSON.parse(l) as { msg?: string; operation?: string }).filter((l) => l.msg === 'TorchServe parameters accepted and ignored' && l.operation === operation);

  beforeAll(async () => {
    runtime.gate.hold();
    t = await startTestServer({
      demoModels: ['iris', 'mlp'],
      // `slow` is registered by a test only: its load waits at the gate.
      config: { models: ['iris', 'mlp'] },
      logger: memoryLogger(logs),
      runtime,
      prepare: async (store) => {
        const { cp, readFile: read, writeFile, rename } = await import('node:fs/promises');
        await cp(join(store, 'mlp'), join(store, 'slow'), { recursive: true });
        const manifest = join(store, 'slow', 'model.yaml');
        const text = await read(manifest, 'utf8');
        const model = /model:\s*(\S+)/.exec(text)?.[1] ?? 'model.onnx';
        await rename(join(store, 'slow', model), join(store, 'slow', 'slow.onnx'));
        await writeFile(manifest, text.replace(/model:\s*\S+/, 'model: slow.onnx').replace(/name:\s*\S+/, 'name: slow'));
      },
    });
    grpc = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    runtime.gate.release();
    grpc.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the start failed
    if (t === undefined) return;
    await t.close();
  });

  it('maps handler=image_classifier (also as a TorchServe handler path) to Sluice’s image-classifier', async () => {
    expect(await manage('/models?url=iris&model_name=iris-image&handler=serve/ts/torch_handler/image_classifier.py:handle', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/iris-image')).body).toMatchObject([{ handler: 'image-classifier' }]);
  });

  it('takes a Sluice handler name as it is, and keeps the choice in the snapshot', async () => {
    expect(await manage('/models?url=iris&model_name=iris-raw&handler=passthrough', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/iris-raw')).body).toMatchObject([{ handler: 'passthrough' }]);
    const snapshot = JSON.parse(await readFile(t.config.snapshot.file, 'utf8')) as { models: { name: string; handler?: string }[] };
    expect(snapshot.models.find((m) => m.name === 'iris-raw')).toMatchObject({ handler: 'passthrough' });
  });

  it('refuses a handler Sluice has not, naming the handlers it has and the TorchServe names it maps', async () => {
    const { status, body } = await manage('/models?url=iris&model_name=x&handler=my_handler.py:handle', 'POST');
    expect({ status, body }).toEqual({
      status: 400,
      body: {
        code: 400,
        type: 'BadRequestException',
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: expect.stringContaining('`handler` "my_handler.py:handle" names no handler Sluice has: give a Sluice handler (') as unknown,
      },
    });
    expect((body as { message: string }).message).toContain('image_classifier → image-classifier, text_classifier → text-classifier');
  });

  it('accepts a TorchServe runtime and s3_sse_kms, says in the answer and the log that they were ignored', async () => {
    const { status, body } = await manage('/models?url=iris&model_name=iris-py&runtime=python&s3_sse_kms=true', 'POST');
    expect(status).toBe(200);
    expect((body as { status: string }).status).toMatch(
      /^Model "iris-py" Version: 1\.0 registered with 1 initial workers \(ignored: runtime=python: .*; s3_sse_kms=true: .*\)$/,
    );
    expect(warnings('POST /models')).toEqual([
      expect.objectContaining({ url: 'iris', ignored: [expect.objectContaining({ parameter: 'runtime', value: 'python' }), expect.objectContaining({ parameter: 's3_sse_kms' })] }),
    ]);
  });

  it('refuses a runtime that is neither onnx nor TorchServe’s', async () => {
    expect(await manage('/models?url=iris&model_name=x&runtime=python4', 'POST')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: "`runtime` must be onnx or one of TorchServe's runtimes (python, python3, LSP, LDP, accepted and ignored), got \"python4\"" },
    });
  });

  it('fails a registration whose model does not load within startup_timeout, and registers nothing', async () => {
    const { status, body } = await manage('/models?url=slow&startup_timeout=1', 'POST');
    expect({ status, errorCode: (body as { errorCode: string }).errorCode, message: (body as { message: string }).message }).toEqual({
      status: 500,
      errorCode: 'SLUICE_MODEL_LOAD_FAILED',
      message: expect.stringMatching(/model\.yaml: the model did not load within 1 s \(startup_timeout\); give a longer startup_timeout, or none$/) as unknown,
    });
    expect(await manage('/models/slow')).toMatchObject({ status: 404 });
  });

  it('scales to one worker when a PUT gives neither min_worker nor max_worker, answering 202', async () => {
    await manage('/models?url=mlp&model_name=mlp-scaled&initial_workers=2', 'POST');
    const { status, body } = await manage('/models/mlp-scaled', 'PUT');
    expect({ status, body }).toEqual({ status: 202, body: { status: 'Processing worker updates...: model "mlp-scaled" version 1.0 scales to min_worker=1, max_worker=1' } });
    expect((await manage('/models/mlp-scaled')).body).toMatchObject([{ minWorkers: 1, maxWorkers: 1 }]);
  });

  it('answers 200 once the workers are ready with synchronous=true', async () => {
    const { status } = await manage('/models/mlp-scaled?min_worker=2&synchronous=true', 'PUT');
    expect(status).toBe(200);
    const [described] = (await manage('/models/mlp-scaled')).body as { workers: { status: string }[] }[];
    expect(described?.workers.map((w) => w.status)).toEqual(['READY', 'READY']);
  });

  it('takes the version to scale from model_version when the path names none', async () => {
    expect(await manage('/models/mlp-scaled?min_worker=1&model_version=9.9', 'PUT')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND' } });
    expect(await manage('/models/mlp-scaled?min_worker=1&model_version=1.0', 'PUT')).toMatchObject({ status: 202 });
  });

  it('ignores number_gpu other than the version’s GPUs, and timeout other than -1, saying so', async () => {
    const { status, body } = await manage('/models/mlp-scaled?min_worker=1&number_gpu=2&timeout=0', 'PUT');
    expect(status).toBe(202);
    expect((body as { status: string }).status).toContain('(ignored: timeout=0: ');
    expect((body as { status: string }).status).toContain('number_gpu=2: model "mlp-scaled" version 1.0 runs on the CPU; GPU placement is chosen when a version loads');
    expect(warnings('PUT /models')).toEqual([expect.objectContaining({ model: 'mlp-scaled', version: '1.0' })]);
  });

  it('takes number_gpu equal to the version’s GPUs (0 on the CPU) without a note', async () => {
    expect(await manage('/models/mlp-scaled?min_worker=1&max_worker=1&number_gpu=0&timeout=-1', 'PUT')).toMatchObject({
      status: 202,
      body: { status: 'Processing worker updates...: model "mlp-scaled" version 1.0 scales to min_worker=1, max_worker=1' },
    });
  });

  it('unregisters with a trailing slash, and names synchronous=false and timeout as ignored', async () => {
    await manage('/models?url=iris&model_name=iris-gone', 'POST');
    const { status, body } = await manage('/models/iris-gone/?synchronous=false&timeout=5', 'DELETE');
    expect(status).toBe(200);
    expect((body as { status: string }).status).toMatch(/^Model "iris-gone" unregistered \(versions 1\.0\) \(ignored: synchronous=false: .*; timeout=5: .*\)$/);
  });

  it('lists with empty limit and next_page_token as with none', async () => {
    expect((await manage('/models?limit=&next_page_token=')).body).toEqual((await manage('/models')).body);
  });

  it('describes with customized=true as without, naming it as ignored in a header', async () => {
    const answer = await manage('/models/iris?customized=true');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sluice-ignored-parameters')).toMatch(/^customized=true: /);
  });

  it('pages the workflow list with limit and next_page_token', async () => {
    expect(await manage('/workflows?limit=1')).toMatchObject({ status: 200, body: { workflows: [] } });
    expect(await manage('/workflows?limit=0')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' } });
  });

  it('lists models on KServe v1 GET /v1/models', async () => {
    const { status, body } = await requestJson(`${t.inference}/v1/models`);
    expect(status).toBe(200);
    expect((body as { models: string[] }).models).toEqual(expect.arrayContaining(['iris', 'mlp']));
  });

  it('maps handler and startup_timeout over gRPC, and names runtime as ignored in the answer', async () => {
    const { msg } = await unary<{ msg: string }>(grpc, 'RegisterModel', { url: 'iris', model_name: 'iris-grpc', handler: 'passthrough', runtime: 'python3', startup_timeout: 60 });
    expect(msg).toMatch(/^Model "iris-grpc" Version: 1\.0 registered with 1 initial workers \(ignored: runtime=python3: /);
    expect((await manage('/models/iris-grpc')).body).toMatchObject([{ handler: 'passthrough' }]);
  });

  it('names number_gpu and timeout as ignored in a gRPC ScaleWorker answer', async () => {
    const { msg } = await unary<{ msg: string }>(grpc, 'ScaleWorker', { model_name: 'iris-grpc', min_worker: 1, number_gpu: 1, timeout: 10, synchronous: true });
    expect(msg).toMatch(/^Model "iris-grpc" version 1\.0 now has min_worker=1, max_worker=1 \(ignored: timeout=10: .*; number_gpu=1: /);
  });
});
