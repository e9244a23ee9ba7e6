import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client } from '@grpc/grpc-js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A workflow called `name` of one node running `target` (`model`, or `model@version`). */
function echoWorkflow(name: string, target: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: ${name}, version: "1" }
inputs:
  x: { datatype: FP32, shape: [-1, 4] }
nodes:
  echo: { model: ${target}, inputs: { input: $request.x } }
outputs: { y: echo.output }
`;
}

/** A TorchServe spec of one model node running `iris-quick`'s files as `quick-spec__quick`; stored as `quick-spec.yaml`, the workflow takes that name. */
const QUICK_SPEC = `models:
  quick:
    url: iris-quick
dag:
  quick: []
`;

const ROW = [0.5, 1.5, 2.5, 3.5];
/** What a run answers: the workflow's one output, the row echoed. */
const echoed = { status: 200, headers: expect.any(Headers), body: [ROW] };

/** The TorchServe-style 409 answer of a refused unregistration. */
const inUse = (message: string): unknown => ({
  status: 409,
  headers: expect.any(Headers),
  body: { code: 409, type: 'ConflictStatusException', errorCode: 'SLUICE_MODEL_IN_USE', message },
});

describe('unregistering a model a registered workflow calls', () => {
  let t: TestServer;
  let grpc: Client;
  const manage = (path: string, method: string): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method });
  const run = (workflow: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/wfpredict/${workflow}`, { method: 'POST', json: { x: [ROW] } });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris-quick'],
      prepare: async (store, dir) => {
        for (const version of ['1', '2']) {
          await addStoreModel(store, `twin-${version}`, (modelDir) => writeIdentityModel(modelDir, 'FP32', [-1, 4]), { name: 'twin', version });
        }
        await addStoreModel(store, 'solo', (modelDir) => writeIdentityModel(modelDir, 'FP32', [-1, 4]), { name: 'solo', version: '1' });
        await writeWorkflowFile(dir, 'solo-any.yaml', echoWorkflow('solo-any', 'solo'));
        await writeWorkflowFile(dir, 'twin-pinned.yaml', echoWorkflow('twin-pinned', 'twin@1'));
        await writeWorkflowFile(dir, 'twin-any.yaml', echoWorkflow('twin-any', 'twin'));
        await writeWorkflowFile(dir, 'quick-spec.yaml', QUICK_SPEC);
      },
    });
    grpc = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    grpc.close();
    await t.close();
  });

  it('refuses DELETE /models/{m} of a model a workflow calls without a version with 409, and the workflow still runs', async () => {
    expect(await manage('/models/solo', 'DELETE')).toEqual(
      inUse(
        'cannot unregister model `solo`: workflow `solo-any` uses it and would fail without it; unregister the workflow first (DELETE /workflows/solo-any), then the model',
      ),
    );
    expect(await run('solo-any')).toEqual(echoed);
  });

  it('refuses DELETE /models/{m}/{v} of the last version of a model a workflow calls without a version', async () => {
    expect(await manage('/models/solo/1', 'DELETE')).toEqual(
      inUse(
        'cannot unregister model `solo` version `1`: workflow `solo-any` uses it and would fail without it; unregister the workflow first (DELETE /workflows/solo-any), then the model',
      ),
    );
  });

  it('refuses DELETE /models/{m}/{v} of the version a workflow names, naming only that workflow', async () => {
    expect(await manage('/models/twin/1', 'DELETE')).toEqual(
      inUse(
        'cannot unregister model `twin` version `1`: workflow `twin-pinned` uses it and would fail without it; unregister the workflow first (DELETE /workflows/twin-pinned), then the model',
      ),
    );
    expect(await run('twin-pinned')).toEqual(echoed);
  });

  it('refuses DELETE /models/{m} of every version, naming every workflow that calls one', async () => {
    expect(await manage('/models/twin', 'DELETE')).toEqual(
      inUse(
        'cannot unregister model `twin`: workflows `twin-any`, `twin-pinned` use it and would fail without it; unregister those workflows first (DELETE /workflows/twin-any, DELETE /workflows/twin-pinned), then the model',
      ),
    );
    expect((await manage('/models/twin/all', 'GET')).body).toMatchObject([{ modelVersion: '1' }, { modelVersion: '2' }]);
  });

  it('refuses unregistering a model a TorchServe spec’s node calls', async () => {
    expect(await manage('/models/quick-spec__quick', 'DELETE')).toEqual(
      inUse(
        'cannot unregister model `quick-spec__quick`: workflow `quick-spec` uses it and would fail without it; unregister the workflow first (DELETE /workflows/quick-spec), then the model',
      ),
    );
  });

  it('refuses UnregisterModel over gRPC with FAILED_PRECONDITION and the same message', async () => {
    expect(await callError(unary(grpc, 'UnregisterModel', { model_name: 'solo' }))).toEqual({
      code: status.FAILED_PRECONDITION,
      details:
        'cannot unregister model `solo`: workflow `solo-any` uses it and would fail without it; unregister the workflow first (DELETE /workflows/solo-any), then the model',
      errorCode: 'SLUICE_MODEL_IN_USE',
    });
    expect(await manage('/models/solo', 'GET')).toMatchObject({ status: 200 });
  });

  it('lets a model a workflow calls scale to 0 workers', async () => {
    expect(await manage('/models/solo?min_worker=0&synchronous=true', 'PUT')).toMatchObject({
      status: 200,
      body: { status: 'Model "solo" version 1 now has min_worker=0, max_worker=1' },
    });
    expect(await manage('/models/solo?min_worker=1&synchronous=true', 'PUT')).toMatchObject({ status: 200 });
  });

  it('unregisters a version no workflow names while a workflow calling the model without a version can use another', async () => {
    // twin-pinned names version 1; once it is gone, twin-any alone uses twin, and version 2 (the default) remains.
    expect(await manage('/workflows/twin-pinned', 'DELETE')).toMatchObject({ status: 200 });
    expect(await manage('/models/twin/1', 'DELETE')).toMatchObject({ status: 200, body: { status: 'Model "twin" version 1 unregistered' } });
    expect(await run('twin-any')).toEqual(echoed);
  });

  it('unregisters the model once the workflows calling it are unregistered', async () => {
    expect(await manage('/workflows/solo-any', 'DELETE')).toMatchObject({ status: 200 });
    expect(await manage('/models/solo', 'DELETE')).toMatchObject({ status: 200, body: { status: 'Model "solo" unregistered (versions 1)' } });
  });
});
