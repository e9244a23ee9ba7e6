import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client } from '@grpc/grpc-js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A workflow of one `iris` node, called `name`. */
function irisWorkflow(name: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: ${name}, version: "1" }
inputs:
  measurements: { datatype: FP32, shape: [-1, 4] }
nodes:
  careful: { model: iris, inputs: { input: $request.measurements } }
outputs: { label: careful.label }
`;
}

/** A TorchServe spec of `iris-quick`'s files, registered as `iris-quick__quick`; stored as `iris-quick.yaml`, the workflow takes the store model's name. */
const SELF_NAMED_SPEC = `models:
  quick:
    url: iris-quick
dag:
  quick: []
`;

const FLOWER = [5.1, 3.5, 1.4, 0.2];

const workflowRefusal = (name: string): string =>
  `cannot register workflow \`${name}\`: model \`${name}\` holds that name, and a workflow and a model cannot share one (POST /v2/models/${name}/infer and gRPC inference would reach only the model); register the workflow under another workflow_name, or unregister the model first (DELETE /models/${name})`;

const modelRefusal = (name: string): string =>
  `cannot register model \`${name}\`: workflow \`${name}\` holds that name, and a model and a workflow cannot share one (POST /v2/models/${name}/infer and gRPC inference would reach only the model); register the model under another model_name, or unregister the workflow first (DELETE /workflows/${name})`;

/** The TorchServe-style 409 answer of a refused registration. */
const conflict = (message: string): unknown => ({
  status: 409,
  headers: expect.any(Headers),
  body: { code: 409, type: 'ConflictStatusException', errorCode: 'SLUICE_MODEL_ALREADY_REGISTERED', message },
});

describe('a model and a workflow cannot share a name', () => {
  let t: TestServer;
  let grpc: Client;
  const post = (path: string): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method: 'POST' });
  const oipInfer = (name: string, input: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/v2/models/${name}/infer`, { method: 'POST', json: { inputs: [{ name: input, shape: [1, 4], datatype: 'FP32', data: FLOWER }] } });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      config: { models: ['iris'], workflows: [] },
      prepare: async (store, dir) => {
        await addStoreModel(store, 'named-flower', (modelDir) => writeIdentityModel(modelDir, 'FP32', [-1, 4]), { name: 'flower', version: '1' });
        await writeWorkflowFile(dir, 'flower.yaml', irisWorkflow('flower'));
        await writeWorkflowFile(dir, 'iris-named.yaml', irisWorkflow('iris'));
        await writeWorkflowFile(dir, 'iris-quick.yaml', SELF_NAMED_SPEC);
      },
    });
    expect((await post('/workflows?url=flower')).status).toBe(200);
    grpc = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    grpc.close();
    await t.close();
  });

  it('refuses a workflow registered under a model’s name with 409, and OIP inference still reaches the model', async () => {
    expect(await post('/workflows?url=flower&workflow_name=iris')).toEqual(conflict(workflowRefusal('iris')));
    expect(await requestJson(`${t.management}/workflows/iris`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_WORKFLOW_NOT_FOUND' } });
    expect(await oipInfer('iris', 'input')).toMatchObject({ status: 200, body: { model_name: 'iris' } });
  });

  it('refuses a workflow whose file names it after a model with 409', async () => {
    expect(await post('/workflows?url=iris-named')).toEqual(conflict(workflowRefusal('iris')));
    expect(await requestJson(`${t.management}/workflows/iris`)).toMatchObject({ status: 404 });
  });

  it('registers a TorchServe spec named after the store model it uses: its model is <workflow>__<node>, so the names never clash', async () => {
    expect(await post('/workflows?url=iris-quick')).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/models/iris-quick__quick`)).toMatchObject({ status: 200, body: [{ modelName: 'iris-quick__quick' }] });
    expect(await requestJson(`${t.management}/models/iris-quick`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('refuses a model registered under a workflow’s name with 409, and OIP inference still reaches the workflow', async () => {
    expect(await post('/models?url=iris&model_name=flower')).toEqual(conflict(modelRefusal('flower')));
    expect(await requestJson(`${t.management}/models/flower`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    expect(await oipInfer('flower', 'measurements')).toMatchObject({ status: 200, body: { model_name: 'flower' } });
  });

  it('refuses a model whose manifest names it after a workflow with 409', async () => {
    expect(await post('/models?url=named-flower')).toEqual(conflict(modelRefusal('flower')));
    expect(await requestJson(`${t.management}/models/flower`)).toMatchObject({ status: 404 });
  });

  it('refuses a background registration (synchronous=false) under a workflow’s name at once with 409, not 202', async () => {
    expect(await post('/models?url=iris&model_name=flower&synchronous=false')).toEqual(conflict(modelRefusal('flower')));
  });

  it('refuses RegisterModel over gRPC under a workflow’s name with ALREADY_EXISTS', async () => {
    expect(await callError(unary(grpc, 'RegisterModel', { url: 'iris', model_name: 'flower' }))).toEqual({
      code: status.ALREADY_EXISTS,
      details: modelRefusal('flower'),
      errorCode: 'SLUICE_MODEL_ALREADY_REGISTERED',
    });
    expect(await requestJson(`${t.management}/models/flower`)).toMatchObject({ status: 404 });
  });
});

describe('a configured workflow named after a configured model', () => {
  let t: TestServer;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      logger,
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'iris.yaml', irisWorkflow('iris'));
        await writeWorkflowFile(dir, 'flower.yaml', irisWorkflow('flower'));
      },
    });
  });
  afterAll(() => t.close());

  it('is skipped at start-up and logged with the reason; the other workflows register', async () => {
    expect((await requestJson(`${t.management}/workflows`)).body).toEqual({ workflows: [{ workflowName: 'flower', workflowUrl: 'flower', workflowVersion: '1' }] });
    expect(logger.lines.filter((line) => line.message === 'workflow failed to load; the others still start')).toEqual([
      { level: 'error', message: 'workflow failed to load; the others still start', fields: { source: 'iris', reason: workflowRefusal('iris') } },
    ]);
  });

  it('leaves the model reachable by OIP inference', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: FLOWER }] },
    });
    expect(answer).toMatchObject({ status: 200, body: { model_name: 'iris' } });
  });
});
