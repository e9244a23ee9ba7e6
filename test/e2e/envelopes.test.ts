import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
          'the json envelope made 3 requests of this body, more than the 2 that model `iris-short-queue` version `1.0` can queue (jobQueueSize); send at most 2 instances per request, or raise jobQueueSize',
      },
    });
  });

  it('a body of as many instances as the model can queue is answered', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris-short-queue`, { method: 'POST', json: { instances: [SETOSA, VIRGINICA] } });
    expect(answer).toMatchObject({ status: 200, body: { predictions: [{ label: 'setosa' }, { label: 'virginica' }] } });
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
