import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { writeAddModel, writeGarbageModel } from '../support/onnx-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** Writes the Add model as `<store>/<name>/model.onnx`, with no manifest beside it. */
async function modelFileOnly(store: string, name: string): Promise<void> {
  await mkdir(join(store, name));
  await rename(await writeAddModel(join(store, name)), join(store, name, 'model.onnx'));
}

const ADD_REQUEST = {
  inputs: [
    { name: 'a', datatype: 'FP32', shape: [1, 3], data: [1, 2, 3] },
    { name: 'b', datatype: 'FP32', shape: [1, 3], data: [10, 20, 30] },
  ],
};

describe('models given as a bare model.onnx', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  let addModel: Buffer;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/models?${query}`, { method: 'POST' });
  const sum = async (model: string): Promise<unknown> => (await requestJson(`${t.inference}/v2/models/${model}/infer`, { method: 'POST', json: ADD_REQUEST })).body;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      config: { models: ['adder'], allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/.*$'] },
      prepare: async (store) => {
        await modelFileOnly(store, 'adder');
        await modelFileOnly(store, 'later');
        await mkdir(join(store, 'broken'));
        await rename(await writeGarbageModel(join(store, 'broken')), join(store, 'broken', 'model.onnx'));
      },
    });
    addModel = await readFile(join(t.config.modelStore, 'adder', 'model.onnx'));
    files = await startLoopbackFileServer((request, response) => {
      if (request.url?.endsWith('.onnx') === true) {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(addModel);
      } else {
        response.writeHead(404).end();
      }
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('loads a store directory holding only model.onnx at start-up, under its name, version 1, passthrough', async () => {
    expect((await requestJson(`${t.management}/models/adder`)).body).toMatchObject([{ modelName: 'adder', modelVersion: '1', handler: 'passthrough' }]);
    expect(await sum('adder')).toMatchObject({ outputs: [{ name: 'sum', data: [11, 22, 33] }] });
  });

  it('registers one by its store name', async () => {
    expect(await register('url=later')).toMatchObject({ status: 200 });
    expect(await sum('later')).toMatchObject({ outputs: [{ name: 'sum', data: [11, 22, 33] }] });
  });

  it('registers a bare .onnx URL under its file name, or model_name', async () => {
    expect(await register(`url=${encodeURIComponent(`${files.url}/models/remote%20adder.onnx`)}`)).toMatchObject({ status: 200 });
    expect(await sum('remote-adder')).toMatchObject({ outputs: [{ name: 'sum', data: [11, 22, 33] }] });
    expect(await register(`url=${encodeURIComponent(`${files.url}/x/model.onnx`)}&model_name=named`)).toMatchObject({ status: 200 });
    expect(await sum('named')).toMatchObject({ outputs: [{ name: 'sum', data: [11, 22, 33] }] });
  });

  it('refuses a model.onnx that is no model, naming the file', async () => {
    const answer = await register('url=broken');
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).toContain(join('broken', 'model.onnx'));
  });
});
