import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

describe('KServe v1 API', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports a model as {name, ready}', async () => {
    expect(await requestJson(`${t.inference}/v1/models/iris`)).toMatchObject({ status: 200, body: { name: 'iris', ready: true } });
  });

  it('predicts {instances} with one prediction per instance', async () => {
    const { status, body } = await requestJson(`${t.inference}/v1/models/iris:predict`, {
      method: 'POST',
      json: { instances: [[5.1, 3.5, 1.4, 0.2], [6.7, 3.0, 5.2, 2.3], [5.9, 3.0, 4.2, 1.5]] },
    });
    expect(status).toBe(200);
    expect((body as { predictions: { label: string }[] }).predictions.map((p) => p.label)).toEqual(['setosa', 'virginica', 'versicolor']);
  });

  it('answers raw output rows for a passthrough model', async () => {
    const { body } = await requestJson(`${t.inference}/v1/models/mlp:predict`, {
      method: 'POST',
      json: { instances: [Array.from({ length: 64 }, () => 0.5)] },
    });
    const predictions = (body as { predictions: number[][] }).predictions;
    expect(predictions).toHaveLength(1);
    expect(predictions[0]).toHaveLength(10);
  });

  it('answers a body without instances with 400 in the KServe error style', async () => {
    expect(await requestJson(`${t.inference}/v1/models/iris:predict`, { method: 'POST', json: { rows: [] } })).toMatchObject({
      status: 400,
      body: { error: 'a KServe v1 request is {"instances": [...]} (or {"inputs": ...})', errorCode: 'SLUICE_REQUEST_INVALID' },
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
