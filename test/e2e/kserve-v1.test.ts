import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultHandlerFixtureDir } from '../../scripts/build-handler-fixtures.js';
import { solidImage } from '../support/handlers/classifier-fixtures.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { writeTwoInputTwoOutputModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const VIRGINICA = [6.7, 3.0, 5.2, 2.3];
const BOTH_LISTS = 'the body has both "instances" and "inputs"; send the instances under one of them: {"instances": [...]} or {"inputs": [...]}';

/** A copy of the model in `store/from` named `to`, its manifest edited by `edit`. */
async function copyModel(store: string, from: string, to: string, edit: (manifest: string) => string = (m) => m): Promise<void> {
  await cp(join(store, from), join(store, to), { recursive: true });
  const file = join(store, to, 'model.yaml');
  await writeFile(file, edit((await readFile(file, 'utf8')).replace(`name: ${from}`, `name: ${to}`)));
}

/** The base64 text of a solid-colour PNG, as a KServe client sends an image instance (`{"b64": …}`). */
async function b64Image(colour: [number, number, number]): Promise<{ b64: string }> {
  return { b64: Buffer.from(await solidImage(colour, 'png')).toString('base64') };
}

/** The most probable class of each `{label: probability}` prediction. */
function topLabels(body: unknown): string[] {
  return (body as { predictions: Record<string, number>[] }).predictions.map((p) => Object.keys(p)[0] ?? '');
}

describe('KServe v1 API', () => {
  let t: TestServer;
  const predict = (model: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/v1/models/${model}:predict`, { method: 'POST', json });

  beforeAll(async () => {
    t = await startTestServer({
      prepare: async (store) => {
        await addStoreModel(store, 'pair', writeTwoInputTwoOutputModel, { name: 'pair', version: '1' });
        await copyModel(store, 'iris', 'iris-batch', (m) => m.replace('maxBatchSize: 1,', 'maxBatchSize: 8,'));
        await copyModel(store, 'iris', 'iris-dropped', (m) => m.replace('maxBatchSize: 1,', 'maxBatchSize: 8,'));
        await copyModel(store, 'iris', 'iris-short-queue', (m) => `${m}jobQueueSize: 2\n`);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports a model as {name, ready}', async () => {
    expect(await requestJson(`${t.inference}/v1/models/iris`)).toMatchObject({ status: 200, body: { name: 'iris', ready: true } });
  });

  it('predicts {instances} with one prediction per instance', async () => {
    const { status, body } = await predict('iris', { instances: [SETOSA, VIRGINICA, [5.9, 3.0, 4.2, 1.5]] });
    expect(status).toBe(200);
    expect((body as { predictions: { label: string }[] }).predictions.map((p) => p.label)).toEqual(['setosa', 'virginica', 'versicolor']);
  });

  it('answers raw output rows for a passthrough model', async () => {
    const { body } = await predict('mlp', { instances: [Array.from({ length: 64 }, () => 0.5)] });
    const predictions = (body as { predictions: number[][] }).predictions;
    expect(predictions).toHaveLength(1);
    expect(predictions[0]).toHaveLength(10);
  });

  it('answers each object instance of a two-input model with its own outputs', async () => {
    expect(await predict('pair', { instances: [{ x: [1, 2, 3], ids: 5 }, { ids: 7, x: [0, 0, 0.5] }] })).toMatchObject({
      status: 200,
      body: { predictions: [{ doubled: [2, 4, 6], ids_plus_one: 6 }, { doubled: [0, 0, 1], ids_plus_one: 8 }] },
    });
  });

  it('reads {"inputs": [...]} as the list of instances', async () => {
    const { body } = await predict('iris', { inputs: [VIRGINICA, SETOSA] });
    expect((body as { predictions: { label: string }[] }).predictions.map((p) => p.label)).toEqual(['virginica', 'setosa']);
  });

  it('hands each instance to the handler as a request of its own, and they run as one batch', async () => {
    expect((await predict('iris-batch', { instances: [SETOSA, VIRGINICA, SETOSA] })).status).toBe(200);
    const [described] = (await requestJson(`${t.management}/models/iris-batch`)).body as [{ recentBatchSizes: number[] }];
    expect(described.recentBatchSizes).toEqual([3]);
  });

  it('answers a body without instances with 400 in the KServe error style', async () => {
    expect(await predict('iris', { rows: [] })).toMatchObject({
      status: 400,
      body: { error: 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('answers instances that are not a list with 400', async () => {
    expect(await predict('iris', { instances: { input: SETOSA } })).toMatchObject({
      status: 400,
      body: {
        error: 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]}); "instances" is a JSON object, not a list with one entry per prediction',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });

  it('answers a body with both instances and inputs with 400 naming both, rather than dropping one', async () => {
    expect(await predict('iris', { instances: [SETOSA], inputs: [VIRGINICA] })).toMatchObject({ status: 400, body: { error: BOTH_LISTS, errorCode: 'SLUICE_REQUEST_INVALID' } });
  });

  it('answers instances null beside inputs with the same 400', async () => {
    expect(await predict('iris', { instances: null, inputs: [VIRGINICA] })).toMatchObject({ status: 400, body: { error: BOTH_LISTS, errorCode: 'SLUICE_REQUEST_INVALID' } });
  });

  it('answers a body declared in a charset other than UTF-8 with 415 naming it', async () => {
    const answer = await requestJson(`${t.inference}/v1/models/iris:predict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: JSON.stringify({ instances: [SETOSA] }),
    });
    expect(answer).toMatchObject({
      status: 415,
      body: {
        error: 'the body is declared as charset=latin1, but Sluice reads JSON and text bodies as UTF-8 only; send the body UTF-8 encoded, with charset=utf-8 or no charset',
        errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      },
    });
  });

  it.each(['application/octet-stream', 'image/png', 'multipart/form-data; boundary=x'])(
    'reads a JSON body sent as %s as JSON, as the kserve envelope does, rather than saying it has no instances',
    async (contentType) => {
      const answer = await requestJson(`${t.inference}/v1/models/iris:predict`, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify({ instances: [SETOSA] }) });
      expect(answer).toMatchObject({ status: 200, body: { predictions: [{ label: 'setosa' }] } });
    },
  );

  it('answers a body that is not JSON, whatever its Content-Type, with 400 SLUICE_REQUEST_MALFORMED_JSON', async () => {
    const answer = await requestJson(`${t.inference}/v1/models/iris:predict`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: 'not json' });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_MALFORMED_JSON', error: expect.stringMatching(/^the request body is not valid JSON: /) as unknown } });
  });

  it('answers empty instances with 400', async () => {
    expect(await predict('iris', { instances: [] })).toMatchObject({
      status: 400,
      body: { error: '"instances" is empty; send at least one instance', errorCode: 'SLUICE_REQUEST_INVALID' },
    });
  });

  it('answers more instances than the model can queue with 400 saying how many fit', async () => {
    expect(await predict('iris-short-queue', { instances: [SETOSA, VIRGINICA, SETOSA] })).toMatchObject({
      status: 400,
      body: {
        error:
          '`instances` has 3 entries, more than the 2 that model `iris-short-queue` version `1.0` can queue (jobQueueSize); send at most 2 instances per request, or raise jobQueueSize',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });

  it('answers as many instances as the model can queue', async () => {
    expect(await predict('iris-short-queue', { instances: [SETOSA, VIRGINICA] })).toMatchObject({ status: 200, body: { predictions: [{ label: 'setosa' }, { label: 'virginica' }] } });
  });

  it('answers one bad instance among good ones with 400 naming its index', async () => {
    expect(await predict('iris', { instances: [SETOSA, [1, 2], VIRGINICA] })).toMatchObject({
      status: 400,
      body: { error: 'instances[1]: input `input` of model `iris` must have shape [-1,4] (-1 = any size), got [1,2]', errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' },
    });
  });

  it('runs none of the good instances of a body with a bad one', async () => {
    expect((await predict('iris-dropped', { instances: [SETOSA, [1, 2], VIRGINICA] })).status).toBe(400);
    const [described] = (await requestJson(`${t.management}/models/iris-dropped`)).body as [{ recentBatchSizes: number[] }];
    expect(described.recentBatchSizes).toEqual([]);
  });

  it('answers an object instance lacking an input of a two-input model with 400 naming its index', async () => {
    expect(await predict('pair', { instances: [{ x: [1, 2, 3], ids: 5 }, { x: [1, 2, 3] }] })).toMatchObject({
      status: 400,
      body: { error: 'instances[1]: the instance lacks input `ids`', errorCode: 'SLUICE_TENSOR_MISSING_INPUT' },
    });
  });

  it('answers an unknown verb with 404', async () => {
    expect(await requestJson(`${t.inference}/v1/models/iris:explain`, { method: 'POST', json: { instances: [] } })).toMatchObject({
      status: 404,
      body: { errorCode: 'SLUICE_ROUTE_NOT_FOUND' },
    });
  });

  it('answers an unknown model with 404', async () => {
    expect(await requestJson(`${t.inference}/v1/models/nope`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });
});

/** The image and text classifier handlers take one image or text per request: each instance is one. */
describe('KServe v1 API with the image and text classifiers', () => {
  let t: TestServer;
  const predict = (model: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/v1/models/${model}:predict`, { method: 'POST', json });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      // The text classifier is CPU-heavy: its threads load the TypeScript sources, as tests run them.
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store) => {
        await cp(join(defaultHandlerFixtureDir(), 'colours'), join(store, 'colours'), { recursive: true });
        await cp(join(defaultHandlerFixtureDir(), 'sentiment'), join(store, 'sentiment'), { recursive: true });
      },
    });
    // The handler thread compiles the text classifier's sources on its first request; not a test's time.
    await requestJson(`${t.inference}/predictions/sentiment`, { method: 'POST', body: 'good', headers: { 'content-type': 'text/plain' } });
  }, 30_000);
  afterAll(async () => {
    await t.close();
  });

  it('classifies each {"b64": …} image instance, in order', async () => {
    const instances = [await b64Image([255, 0, 0]), await b64Image([0, 0, 255]), await b64Image([0, 255, 0])];
    const answer = await predict('colours', { instances });
    expect([answer.status, topLabels(answer.body)]).toEqual([200, ['red', 'blue', 'green']]);
  });

  it('classifies each text instance, a string or {"text": …}, in order', async () => {
    const answer = await predict('sentiment', { instances: ['good great', { text: 'The film was bad, awful.' }, 'excellent'] });
    expect([answer.status, topLabels(answer.body)]).toEqual([200, ['positive', 'negative', 'positive']]);
  });

  it('answers an empty image among good ones with 400 naming its index', async () => {
    expect(await predict('colours', { instances: [await b64Image([255, 0, 0]), { b64: '' }] })).toMatchObject({
      status: 400,
      body: {
        error: 'instances[1]: image-classifier: the body holds no image (it is empty); send the image bytes (curl --data-binary @image.jpg) or JSON {"data": "<base64 image>"}',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });

  it('answers an empty text among good ones with 400 naming its index', async () => {
    expect(await predict('sentiment', { instances: ['good', 'bad', ''] })).toMatchObject({
      status: 400,
      body: {
        error: 'instances[2]: text-classifier: the text is empty; send the text as the body (Content-Type: text/plain), a JSON string, or JSON {"text": "…"}',
        errorCode: 'SLUICE_REQUEST_INVALID',
      },
    });
  });
});
