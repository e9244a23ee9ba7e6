import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client, type ClientReadableStream } from '@grpc/grpc-js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

function json(bytes: Buffer): unknown {
  return JSON.parse(bytes.toString('utf8'));
}

function collect(stream: ClientReadableStream<unknown>): Promise<unknown[]> {
  const messages: unknown[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (message: unknown) => messages.push(message));
    stream.on('error', reject);
    stream.on('end', () => {
      resolve(messages);
    });
  });
}

describe('TorchServe inference over gRPC (InferenceAPIsService)', () => {
  let t: TestServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestServer();
    client = grpcClient('torchserveInference', t.grpcInference);
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  it('answers Ping with Healthy', async () => {
    expect(await unary(client, 'Ping', {})).toEqual({ health: JSON.stringify({ status: 'Healthy' }) });
  });

  it('predicts with the model’s handler from input["data"], as REST does from the body', async () => {
    const response = await unary<{ prediction: Buffer }>(client, 'Predictions', { model_name: 'iris', input: { data: Buffer.from(JSON.stringify(SETOSA)) } });
    expect(json(response.prediction)).toMatchObject({ label: 'setosa' });
  });

  it('predicts with a given version', async () => {
    const response = await unary<{ prediction: Buffer }>(client, 'Predictions', { model_name: 'iris', model_version: '1.0', input: { data: Buffer.from(JSON.stringify(SETOSA)) } });
    expect(json(response.prediction)).toMatchObject({ label: 'setosa' });
  });

  it('streams a model’s prediction as one message', async () => {
    const stream = (client as unknown as Record<string, (r: unknown) => ClientReadableStream<unknown>>)['StreamPredictions']?.call(client, {
      model_name: 'iris',
      input: { data: Buffer.from(JSON.stringify(SETOSA)) },
    });
    const messages = (await collect(stream as ClientReadableStream<unknown>)) as { prediction: Buffer }[];
    expect(messages.map((m) => json(m.prediction))).toEqual([expect.objectContaining({ label: 'setosa' })]);
  });

  it('answers NOT_FOUND for an unknown model', async () => {
    expect(await callError(unary(client, 'Predictions', { model_name: 'nope', input: { data: Buffer.from('[1]') } }))).toMatchObject({
      code: status.NOT_FOUND,
      errorCode: 'SLUICE_MODEL_NOT_FOUND',
    });
  });

  it('answers a StreamPredictions failure as the call’s status', async () => {
    const stream = (client as unknown as Record<string, (r: unknown) => ClientReadableStream<unknown>>)['StreamPredictions']?.call(client, {
      model_name: 'nope',
      input: { data: Buffer.from('[1]') },
    });
    expect(await callError(collect(stream as ClientReadableStream<unknown>))).toMatchObject({ code: status.NOT_FOUND, errorCode: 'SLUICE_MODEL_NOT_FOUND' });
  });

  it('refuses a request without input', async () => {
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'the request has no input; put the request body in input["data"]',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses a body with both "data" and "inputs" with INVALID_ARGUMENT naming both, as REST does', async () => {
    const body = Buffer.from(JSON.stringify({ data: SETOSA, inputs: { input: SETOSA } }));
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris', input: { data: body } }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'the body has both "data" and "inputs"; send only one of them: send a JSON array, {"data": …}, {"inputs": {"<name>": …}}, {"inputs": [OIP tensors]} or {"instances": […]}',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses input entries "data" and "inputs" together, which make a body with both', async () => {
    const input = { data: Buffer.from(JSON.stringify(SETOSA)), inputs: Buffer.from(JSON.stringify({ input: SETOSA })) };
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris', input }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^the body has both "data" and "inputs"; send only one of them/) as unknown,
    });
  });

  it('refuses a body of [] with INVALID_ARGUMENT saying it holds no instance', async () => {
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris', input: { data: Buffer.from('[]') } }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'the body holds no instance: the body is an empty list; input `input` of model `iris` has shape [-1,4] (-1 = any size), so send one instance of shape [4] or a list of them',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses input["data"] that is not JSON for a JSON model, saying to send JSON there rather than a content type', async () => {
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris', input: { data: Buffer.from('not json') } }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'model `iris` takes JSON tensors, got bytes that are not JSON and no content type; send the body as JSON (in input["data"] over gRPC)',
      errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('refuses a body the handler cannot read with INVALID_ARGUMENT', async () => {
    expect(await callError(unary(client, 'Predictions', { model_name: 'iris', input: { data: Buffer.from('[1, 2]') } }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});

describe('TorchServe management over gRPC (ManagementAPIsService)', () => {
  let t: TestServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris', 'mlp'] });
    client = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  it('lists models as JSON, paged', async () => {
    const { msg } = await unary<{ msg: string }>(client, 'ListModels', { limit: 1 });
    expect(JSON.parse(msg)).toEqual({ models: [{ modelName: 'iris', modelUrl: 'iris' }], nextPageToken: '1' });
  });

  it('describes a model as the REST API does', async () => {
    const { msg } = await unary<{ msg: string }>(client, 'DescribeModel', { model_name: 'iris' });
    expect(JSON.parse(msg)).toEqual([expect.objectContaining({ modelName: 'iris', modelVersion: '1.0', isDefault: true })]);
  });

  it('registers a model under another name with its settings', async () => {
    const { msg } = await unary<{ msg: string }>(client, 'RegisterModel', { url: 'iris', model_name: 'iris-copy', initial_workers: 2, batch_size: 4 });
    expect(msg).toBe('Model "iris-copy" Version: 1.0 registered with 2 initial workers');
    const described = JSON.parse((await unary<{ msg: string }>(client, 'DescribeModel', { model_name: 'iris-copy' })).msg) as Record<string, unknown>[];
    expect(described[0]).toMatchObject({ minWorkers: 2, batchSize: 4 });
  });

  it('scales a model', async () => {
    const { msg } = await unary<{ msg: string }>(client, 'ScaleWorker', { model_name: 'iris-copy', min_worker: 1, max_worker: 3 });
    expect(msg).toBe('Model "iris-copy" version 1.0 now has min_worker=1, max_worker=3');
  });

  it('sets the default version', async () => {
    const { msg } = await unary<{ msg: string }>(client, 'SetDefault', { model_name: 'iris', model_version: '1.0' });
    expect(msg).toBe('Default version successfully updated for model "iris" to "1.0"');
  });

  it('unregisters a model, which then is NOT_FOUND', async () => {
    expect(await unary(client, 'UnregisterModel', { model_name: 'iris-copy' })).toEqual({ msg: 'Model "iris-copy" unregistered (versions 1.0)' });
    expect(await callError(unary(client, 'DescribeModel', { model_name: 'iris-copy' }))).toMatchObject({ code: status.NOT_FOUND, errorCode: 'SLUICE_MODEL_NOT_FOUND' });
  });

  it('refuses a registration without url, and an out-of-range argument, with INVALID_ARGUMENT', async () => {
    expect(await callError(unary(client, 'RegisterModel', {}))).toMatchObject({ code: status.INVALID_ARGUMENT, errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' });
    expect(await callError(unary(client, 'ListModels', { limit: 5000 }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'limit must be between 1 and 1000, got 5000',
      errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
    });
  });

  it('refuses a model_name that breaks the manifest rule with INVALID_ARGUMENT, registering nothing', async () => {
    expect(await callError(unary(client, 'RegisterModel', { url: 'iris', model_name: 'a/b' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: "`model_name` must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$ (a letter or digit, then letters, digits, '_', '.' or '-'; at most 128 characters), got \"a/b\"",
      errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
    });
    expect(await callError(unary(client, 'DescribeModel', { model_name: 'a/b' }))).toMatchObject({ code: status.NOT_FOUND });
  });

  it('refuses a URL outside allowedUrls with PERMISSION_DENIED', async () => {
    expect(await callError(unary(client, 'RegisterModel', { url: 'http://169.254.169.254/model.sluice' }))).toMatchObject({
      code: status.PERMISSION_DENIED,
      errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
    });
  });

  it.each([
    ['response_timeout', 86_401, 'response_timeout must be between 1 and 86400, got 86401'],
    ['max_batch_delay', 3_600_001, 'max_batch_delay must be between 1 and 3600000, got 3600001'],
    ['batch_size', 4097, 'batch_size must be between 1 and 4096, got 4097'],
  ])('refuses %s above its limit, as REST does, registering nothing', async (field, value, details) => {
    expect(await callError(unary(client, 'RegisterModel', { url: 'iris', model_name: 'iris-limits', [field]: value }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details,
      errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
    });
    expect(await callError(unary(client, 'DescribeModel', { model_name: 'iris-limits' }))).toMatchObject({ code: status.NOT_FOUND });
  });

  it('takes response_timeout and max_batch_delay at their limits, as REST does', async () => {
    await unary(client, 'RegisterModel', { url: 'iris', model_name: 'iris-limits', response_timeout: 86_400, max_batch_delay: 3_600_000 });
    const described = JSON.parse((await unary<{ msg: string }>(client, 'DescribeModel', { model_name: 'iris-limits' })).msg) as Record<string, unknown>[];
    expect(described[0]).toMatchObject({ responseTimeout: 86_400, maxBatchDelay: 3_600_000 });
    await unary(client, 'UnregisterModel', { model_name: 'iris-limits' });
  });

  it("refuses a batch_size below the manifest's preferred batch sizes with INVALID_ARGUMENT", async () => {
    await addStoreModel(t.config.modelStore, 'tuned', (dir) => writeIdentityModel(dir, 'FP32', [-1, 2]), {
      name: 'tuned',
      version: '1',
      batching: { maxBatchSize: 32, preferredBatchSizes: [8, 16] },
    });
    expect(await callError(unary(client, 'RegisterModel', { url: 'tuned', batch_size: 4 }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        "`batch_size` (4) is below the preferred batch sizes of model `tuned` version `1` (8, 16, from its manifest's batching.preferredBatchSizes); give a batch_size of at least 16, or preferred_batch_sizes as well (empty for none)",
      errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
    });
    expect(await callError(unary(client, 'DescribeModel', { model_name: 'tuned' }))).toMatchObject({ code: status.NOT_FOUND });
  });

  it('refuses to register a version twice with ALREADY_EXISTS', async () => {
    expect(await callError(unary(client, 'RegisterModel', { url: 'iris' }))).toMatchObject({ code: status.ALREADY_EXISTS, errorCode: 'SLUICE_MODEL_ALREADY_REGISTERED' });
  });
});
