import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client } from '@grpc/grpc-js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

describe('the model API turned off (modelApi: false, TorchServe enable_model_api=false)', () => {
  let t: TestServer;
  let management: Client;

  beforeAll(async () => {
    t = await startTestServer({ config: { modelApi: false, models: ['iris'] } });
    management = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    management.close();
    await t.close();
  });

  const modelNames = async (): Promise<string[]> =>
    ((await requestJson(`${t.management}/models`)).body as { models: { modelName: string }[] }).models.map((m) => m.modelName);

  it('still loads the models named at start-up, and serves them', async () => {
    expect(await modelNames()).toEqual(['iris']);
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it('refuses POST /models with 405 SLUICE_MODEL_API_DISABLED, as TorchServe, and registers nothing', async () => {
    const answer = await requestJson(`${t.management}/models?url=mlp`, { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(answer.body).toMatchObject({ code: 405, type: 'MethodNotAllowedException', errorCode: 'SLUICE_MODEL_API_DISABLED' });
    expect((answer.body as { message: string }).message).toContain('set enable_model_api=true in config.properties');
    expect(answer.headers.get('allow')).toContain('GET');
    expect(answer.headers.get('allow')).not.toContain('POST');
    expect(await modelNames()).toEqual(['iris']);
  });

  it('refuses the registration before reading its parameters', async () => {
    const answer = await requestJson(`${t.management}/models?batch_size=dd`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 405, body: { errorCode: 'SLUICE_MODEL_API_DISABLED' } });
  });

  it.each([['/models/iris'], ['/models/iris/1.0']])('refuses DELETE %s with 405, and the model stays', async (path) => {
    const answer = await requestJson(`${t.management}${path}`, { method: 'DELETE' });
    expect(answer).toMatchObject({ status: 405, body: { type: 'MethodNotAllowedException', errorCode: 'SLUICE_MODEL_API_DISABLED' } });
    expect(answer.headers.get('allow')).toContain('PUT');
    expect(answer.headers.get('allow')).not.toContain('DELETE');
    expect(await modelNames()).toEqual(['iris']);
  });

  it('still lists, describes, scales and sets default versions', async () => {
    expect((await requestJson(`${t.management}/models/iris`)).status).toBe(200);
    expect((await requestJson(`${t.management}/models/iris?min_worker=1&synchronous=true`, { method: 'PUT' })).status).toBe(200);
    expect((await requestJson(`${t.management}/models/iris/1.0/set-default`, { method: 'PUT' })).status).toBe(200);
  });

  it('refuses gRPC RegisterModel and UnregisterModel with PERMISSION_DENIED, as TorchServe', async () => {
    const registered = await callError(unary(management, 'RegisterModel', { url: 'mlp' }));
    expect(registered).toMatchObject({ code: status.PERMISSION_DENIED, errorCode: 'SLUICE_MODEL_API_DISABLED' });
    expect(registered.details).toContain('RegisterModel is refused');
    const unregistered = await callError(unary(management, 'UnregisterModel', { model_name: 'iris' }));
    expect(unregistered).toMatchObject({ code: status.PERMISSION_DENIED, errorCode: 'SLUICE_MODEL_API_DISABLED' });
    expect(await modelNames()).toEqual(['iris']);
  });

  it('still answers gRPC ListModels and ScaleWorker', async () => {
    expect(JSON.parse((await unary<{ msg: string }>(management, 'ListModels', {})).msg)).toMatchObject({ models: [{ modelName: 'iris' }] });
    expect((await unary<{ msg: string }>(management, 'ScaleWorker', { model_name: 'iris', min_worker: 1 })).msg).toContain('min_worker=1');
  });
});
