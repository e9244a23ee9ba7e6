import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeTwoInputTwoOutputModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const VIRGINICA = [6.7, 3.0, 5.2, 2.3];

/** A copy of a demo model under another name, its manifest edited by `edit`. */
async function copyModel(store: string, from: string, to: string, edit: (manifest: string) => string): Promise<void> {
  await cp(join(store, from), join(store, to), { recursive: true });
  const file = join(store, to, 'model.yaml');
  await writeFile(file, edit((await readFile(file, 'utf8')).replace(`name: ${from}`, `name: ${to}`)));
}

describe('envelopes on /predictions', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'mlp'],
      prepare: async (store) => {
        await copyModel(store, 'iris', 'iris-json', (m) => `${m}envelope: json\n`);
        await copyModel(store, 'iris', 'iris-nowhere', (m) => `${m}envelope: carrier-pigeon\n`);
        await copyModel(store, 'iris', 'iris-short-queue', (m) => `${m}envelope: json\njobQueueSize: 2\n`);
        await copyModel(store, 'iris', 'iris-batch', (m) => `${m.replace('maxBatchSize: 1,', 'maxBatchSize: 8,')}envelope: json\n`);
        await copyModel(store, 'iris', 'iris-dropped', (m) => `${m.replace('maxBatchSize: 1,', 'maxBatchSize: 8,')}envelope: json\n`);
        await addStoreModel(store, 'pair', writeTwoInputTwoOutputModel, { name: 'pair', version: '1' });
      },
    });
  });
  afterAll(() => t.close());

  it('json, from the model manifest: each instance is answered in order under predictions', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-json`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA] } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ predictions: [{ label: 'setosa' }, { label: 'virginica' }] });
  });

  it('json, chosen per request with ?envelope=', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=json`, { method: 'POST', json: { instances: [VIRGINICA] } });
    expect(answer.body).toMatchObject({ predictions: [{ label: 'virginica' }] });
  });

  it('kserve, chosen with the x-sluice-envelope header, also reads inputs', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', headers: { 'x-sluice-envelope': 'kserve' }, json: { inputs: [SETOSA] } });
    expect(answer.body).toMatchObject({ predictions: [{ label: 'setosa' }] });
  });

  it('kservev2: an Open Inference Protocol request in, OIP outputs named after the model output', async () => {
    const data = Array.from({ length: 64 }, (_, i) => i / 64);
    const answer = await requestJson(`${t.inference}/predictions/mlp?envelope=kservev2`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data }] },
    });
    expect(answer.status).toBe(200);
    const body = answer.body as { model_name: string; outputs: { name: string; datatype: string; shape: number[]; data: number[] }[] };
    expect(body).toMatchObject({ model_name: 'mlp', model_version: '1.0', outputs: [{ datatype: 'FP32', shape: [1, 10] }] });
    expect(body.outputs[0]?.data).toHaveLength(10);
  });

  it('body: the handler gets the raw bytes, even of a JSON body (which the classifier refuses)', async () => {
    const plain = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    const raw = await requestJson(`${t.inference}/predictions/iris?envelope=body`, { method: 'POST', json: SETOSA });
    expect(plain.status).toBe(200);
    expect(raw).toMatchObject({
      status: 415,
      body: {
        errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
        message: 'model `iris` takes JSON tensors, but this JSON body reached its handler unparsed, as the `body` envelope hands it over; send it without that envelope',
      },
    });
  });

  it('a body without the envelope shape is a 400 saying what the envelope expects', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-json`, { method: 'POST', json: SETOSA });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_ENVELOPE_INVALID_BODY', message: 'the json envelope expects {"instances": [...]}; the body has no `instances` list' } });
  });

  it('a body of more instances than the model can queue is a 400 saying how many fit, not a 503 to retry', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-short-queue`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA, SETOSA] } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_REQUEST_INVALID',
        message:
          '`instances` has 3 entries, more than the 2 that model `iris-short-queue` version `1.0` can queue (jobQueueSize); send at most 2 instances per request, or raise jobQueueSize',
      },
    });
  });

  it('kserve: more instances than the model can queue is worded as KServe v1 :predict words it', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-short-queue?envelope=kserve`, { method: 'POST', json: { inputs: [SETOSA, VIRGINICA, SETOSA] } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_REQUEST_INVALID',
        message:
          '`inputs` has 3 entries, more than the 2 that model `iris-short-queue` version `1.0` can queue (jobQueueSize); send at most 2 instances per request, or raise jobQueueSize',
      },
    });
  });

  it('kserve: a body with both instances and inputs is a 400 naming both, as on KServe v1 :predict', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=kserve`, { method: 'POST', json: { instances: [SETOSA], inputs: [VIRGINICA] } });
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'the body has both "instances" and "inputs"; send the instances under one of them: {"instances": [...]} or {"inputs": [...]}' },
    });
  });

  it('kserve: a body without either list is a 400 with the code and message of KServe v1 :predict', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=kserve`, { method: 'POST', json: { rows: [SETOSA] } });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})' } });
  });

  it('kserve: a body that is not JSON is answered exactly as KServe v1 :predict answers it', async () => {
    const send = (url: string) => requestJson(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"instances": [' });
    const [enveloped, predicted] = await Promise.all([send(`${t.inference}/predictions/iris?envelope=kserve`), send(`${t.inference}/v1/models/iris:predict`)]);
    expect(enveloped).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' } });
    // The /v1 route words its error under `error`, the TorchServe route under `message`.
    expect(predicted).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON' } });
    expect((enveloped.body as { message: string }).message).toBe((predicted.body as { error: string }).error);
  });

  it('kserve: a body declared in a charset other than UTF-8 is a 415 naming it', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=kserve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: JSON.stringify({ instances: [SETOSA] }),
    });
    expect(answer).toMatchObject({ status: 415, body: { errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/^the body is declared as charset=utf-16, /) as unknown } });
  });

  it('a body of as many instances as the model can queue is answered', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-short-queue`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA] } });
    expect(answer).toMatchObject({ status: 200, body: { predictions: [{ label: 'setosa' }, { label: 'virginica' }] } });
  });

  it('json, from the model manifest: a bad instance among good ones is a 400 naming its index', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-json`, { method: 'POST', json: { instances: [SETOSA, [1, 2], VIRGINICA] } });
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: 'instances[1]: input `input` of model `iris-json` must have shape [-1,4] (-1 = any size), got [1,2]' },
    });
  });

  it('kserve: a bad instance among good ones is a 400 with its own code, naming its index', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=kserve`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA, [1, 2, 3, 'x']] } });
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_TENSOR_INVALID_VALUE', message: 'instances[2]: input `input`: element 3 is "x", expected a finite number for FP32' },
    });
  });

  it('kserve: a bad instance of an inputs list is named by its place in inputs', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=kserve`, { method: 'POST', json: { inputs: [[1, 2], SETOSA] } });
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: 'inputs[0]: input `input` of model `iris` must have shape [-1,4] (-1 = any size), got [1,2]' },
    });
  });

  it('kserve: each object instance of a two-input model is answered with its own outputs', async () => {
    const answer = await requestJson(`${t.inference}/predictions/pair?envelope=kserve`, { method: 'POST', json: { instances: [{ x: [1, 2, 3], ids: 5 }, { ids: 7, x: [0, 0, 0.5] }] } });
    expect(answer).toMatchObject({ status: 200, body: { predictions: [{ doubled: [2, 4, 6], ids_plus_one: 6 }, { doubled: [0, 0, 1], ids_plus_one: 8 }] } });
  });

  it('kserve: an object instance lacking an input of a two-input model is a 400 naming its index', async () => {
    const answer = await requestJson(`${t.inference}/predictions/pair?envelope=kserve`, { method: 'POST', json: { instances: [{ x: [1, 2, 3], ids: 5 }, { x: [1, 2, 3] }] } });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_TENSOR_MISSING_INPUT', message: 'instances[1]: the instance lacks input `ids`' } });
  });

  it('the instances of one body still run as one batch', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-batch`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA, SETOSA] } });
    expect(answer).toMatchObject({ status: 200, body: { predictions: [{ label: 'setosa' }, { label: 'virginica' }, { label: 'setosa' }] } });
    const [described] = (await requestJson(`${t.management}/models/iris-batch`)).body as [{ recentBatchSizes: number[] }];
    expect(described.recentBatchSizes).toEqual([3]);
  });

  it('none of the good instances of a body with a bad one runs', async () => {
    expect((await requestJson(`${t.inference}/predictions/iris-dropped`, { method: 'POST', json: { instances: [SETOSA, [1, 2], VIRGINICA] } })).status).toBe(400);
    const [described] = (await requestJson(`${t.management}/models/iris-dropped`)).body as [{ recentBatchSizes: number[] }];
    expect(described.recentBatchSizes).toEqual([]);
  });

  it('kservev2: a two-input request is one handler request, a bad tensor answered with its own error', async () => {
    const good = await requestJson(`${t.inference}/predictions/pair?envelope=kservev2`, {
      method: 'POST',
      json: { inputs: [{ name: 'x', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }, { name: 'ids', shape: [1], datatype: 'INT64', data: [5] }] },
    });
    expect(good).toMatchObject({ status: 200, body: { outputs: [{ name: 'doubled', data: [2, 4, 6] }, { name: 'ids_plus_one', data: [6] }] } });
    const bad = await requestJson(`${t.inference}/predictions/pair?envelope=kservev2`, {
      method: 'POST',
      json: { inputs: [{ name: 'x', shape: [1, 2], datatype: 'FP32', data: [1, 2] }, { name: 'ids', shape: [1], datatype: 'INT64', data: [5] }] },
    });
    expect(bad).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: 'input `x` of model `pair` must have shape [-1,3] (-1 = any size), got [1,2]' } });
  });

  it('an unknown envelope asked for by a request is a 400 listing the known ones', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=smoke-signals`, { method: 'POST', json: SETOSA });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_INVALID', message: 'unknown envelope `smoke-signals`; known envelopes: body, json, kserve, kservev2' } });
  });

  it('a model whose manifest names an unknown envelope is not loaded, and says why', () => {
    const failed = t.server.startup.failed.find((f) => f.source.includes('iris-nowhere'));
    expect(failed?.reason).toMatch(/unknown envelope `carrier-pigeon`; known envelopes: body, json, kserve, kservev2/);
  });
});
