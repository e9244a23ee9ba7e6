import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeTwoInputTwoOutputModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const VIRGINICA = [6.7, 3.0, 5.2, 2.3];

describe('TorchServe inference API', () => {
  let t: TestServer;
  const predict = (path: string, json: unknown): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/${path}`, { method: 'POST', json });

  beforeAll(async () => {
    t = await startTestServer({
      prepare: async (store) => {
        await addStoreModel(store, 'pair', writeTwoInputTwoOutputModel, { name: 'pair', version: '1' });
        const copyIris = async (dir: string): Promise<string> => {
          await copyFile(join(store, 'iris', 'model.onnx'), join(dir, 'model.onnx'));
          return join(dir, 'model.onnx');
        };
        await addStoreModel(store, 'iris-v2', copyIris, { name: 'iris', version: '2.0', handler: 'passthrough' });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /ping with Healthy', async () => {
    expect(await requestJson(`${t.inference}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
  });

  it('classifies one instance sent as a bare array with its label and probabilities', async () => {
    const { status, body } = await predict('iris/1.0', SETOSA);
    expect(status).toBe(200);
    expect(body).toMatchObject({ label: 'setosa' });
    const probabilities = (body as { probabilities: Record<string, number> }).probabilities;
    expect(Object.keys(probabilities)).toEqual(['setosa', 'versicolor', 'virginica']);
    expect(Object.values(probabilities).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  it('accepts {"data": …} like a bare array', async () => {
    expect((await predict('iris/1.0', { data: VIRGINICA })).body).toMatchObject({ label: 'virginica' });
  });

  it('answers a batch the client shaped itself with one result per row', async () => {
    const { body } = await predict('iris/1.0', [SETOSA, VIRGINICA]);
    expect((body as { label: string }[]).map((r) => r.label)).toEqual(['setosa', 'virginica']);
  });

  it('uses the default version (the highest) when the path names none', async () => {
    const { body } = await predict('iris', SETOSA);
    // iris 2.0 uses the passthrough handler: raw outputs by name
    expect(Object.keys(body as object).sort()).toEqual(['label', 'probabilities']);
    expect((body as { label: number }).label).toBe(0);
  });

  it('takes {"inputs": {name: …}} for a model with several inputs and answers every output by name', async () => {
    const { status, body } = await predict('pair', { inputs: { x: [1, 2, 3], ids: 41 } });
    expect(status).toBe(200);
    expect(body).toEqual({ doubled: [2, 4, 6], ids_plus_one: 42 });
  });

  it('refuses a body with both "data" and "inputs" with 400 naming both, instead of using one', async () => {
    expect(await predict('iris/1.0', { data: SETOSA, inputs: { input: VIRGINICA } })).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_REQUEST_INVALID',
        message: 'the body has both "data" and "inputs"; send only one of them: send a JSON array, {"data": …}, {"inputs": {"<name>": …}}, {"inputs": [OIP tensors]} or {"instances": […]}',
      },
    });
  });

  it('refuses a body of [] with 400 saying it holds no instance', async () => {
    expect(await predict('iris/1.0', [])).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_REQUEST_INVALID',
        message: 'the body holds no instance: the body is an empty list; input `input` of model `iris` has shape [-1,4] (-1 = any size), so send one instance of shape [4] or a list of them',
      },
    });
  });

  it('answers an unknown version with 404 naming the versions that exist', async () => {
    expect(await predict('iris/9.9', SETOSA)).toMatchObject({
      status: 404,
      body: { code: 404, type: 'ModelVersionNotFoundException', errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND', message: 'model `iris` has no version `9.9`; registered versions: 1.0, 2.0' },
    });
  });
});
