import assert from 'node:assert/strict';
import { test } from 'node:test';
import plugin, { BadFlower, csvEnvelope, flowerHandler, InferenceCounter } from '../index.js';

const iris = {
  name: 'iris',
  version: '1.0',
  inputs: [{ name: 'measurements', datatype: 'FP32', shape: [-1, 4] }],
  outputs: [{ name: 'probabilities', datatype: 'FP32', shape: [-1, 3] }],
  labels: ['setosa', 'versicolor', 'virginica'],
};
const context = { model: iris, logger: console, signal: new AbortController().signal, config: {} };

test('the flower handler turns named measurements into one row of the model input', async () => {
  const [prepared] = await flowerHandler.preprocess([{ body: { sepal_length: 5.1, sepal_width: 3.5, petal_length: 1.4, petal_width: 0.2 }, contentType: 'application/json' }], context);
  assert.equal(prepared.inputs[0].name, 'measurements');
  assert.deepEqual(prepared.inputs[0].shape, [1, 4]);
  assert.deepEqual([...prepared.inputs[0].data].map((v) => Number(v.toFixed(1))), [5.1, 3.5, 1.4, 0.2]);
});

test('the flower handler refuses a missing measurement with a Sluice request error', async () => {
  await assert.rejects(flowerHandler.preprocess([{ body: { sepal_length: 5.1 }, contentType: 'application/json' }], context), (error) => {
    assert.ok(error instanceof BadFlower);
    assert.equal(error.code, 'SLUICE_REQUEST_INVALID');
    assert.match(error.message, /sepal_width/);
    return true;
  });
});

test('the flower handler answers the most probable species', async () => {
  const outputs = [{ name: 'probabilities', datatype: 'FP32', shape: [1, 3], data: Float32Array.from([0.1, 0.7, 0.2]) }];
  const [answer] = await flowerHandler.postprocess([{ request: { body: {}, contentType: 'application/json' }, outputs, state: undefined }], context);
  assert.deepEqual(answer, { species: 'versicolor', probability: 0.7 });
});

test('the CSV envelope makes one request per line and answers one line per request', () => {
  const requests = csvEnvelope.decode({ body: new TextEncoder().encode('1,2,3,4\n5,6,7,8\n'), contentType: 'text/csv' }, { model: iris });
  assert.deepEqual(requests.map((r) => r.body), [[1, 2, 3, 4], [5, 6, 7, 8]]);
  const response = csvEnvelope.encode([{ species: 'setosa', probability: 0.9 }, { species: 'virginica', probability: 0.8 }], { model: iris });
  assert.equal(response.contentType, 'text/csv');
  assert.equal(new TextDecoder().decode(response.body), 'setosa,0.9\nvirginica,0.8\n');
});

test('the CSV envelope refuses an empty body', () => {
  assert.throws(() => csvEnvelope.decode({ body: new Uint8Array(0), contentType: 'text/csv' }, { model: iris }), /no lines/);
});

test('the stats endpoint reports what the postInfer hook counted', async () => {
  const counter = new InferenceCounter();
  counter.record({ model: iris, api: 'predictions', ok: true, durationMs: 1 });
  counter.record({ model: iris, api: 'predictions', ok: false, durationMs: 1 });
  const response = await counter.endpoint().handle({}, { models: () => [iris], workflows: () => [], config: { greeting: 'hi' }, logger: console });
  assert.deepEqual(response.body, { greeting: 'hi', models: ['iris@1.0'], inferences: { iris: { ok: 1, failed: 1 } } });
});

test('register() registers exactly what package.json declares', async () => {
  const registered = [];
  const fake = (point) => (item) => registered.push(`${point}:${item.name}`);
  await plugin.register({
    config: { greeting: 'hi' },
    logger: { info() {} },
    handler: fake('handler'),
    envelope: fake('envelope'),
    endpoint: fake('endpoint'),
    hook: (name) => registered.push(`hook:${name}`),
  });
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).sluice;
  assert.deepEqual(registered.sort(), manifest.provides.map((p) => `${p.point}:${p.name}`).sort());
});
