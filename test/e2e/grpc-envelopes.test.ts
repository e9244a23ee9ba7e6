import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@grpc/grpc-js';
import { callError, grpcClient, metadataOf, unary } from '../support/grpc-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const VIRGINICA = [6.7, 3.0, 5.2, 2.3];
const body = (value: unknown): { data: Buffer } => ({ data: Buffer.from(JSON.stringify(value)) });
const json = (bytes: Buffer): unknown => JSON.parse(bytes.toString('utf8'));

/** TorchServe's gRPC Predictions applies envelopes as REST's /predictions does. */
describe('envelopes on gRPC Predictions', () => {
  let t: TestServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'] });
    client = grpcClient('torchserveInference', t.grpcInference);
  });
  afterAll(async () => {
    client.close();
    await t.close();
  });

  it('decodes input["data"] with the envelope named in the x-sluice-envelope metadata', async () => {
    const response = await unary<{ prediction: Buffer }>(client, 'Predictions', { model_name: 'iris', input: body({ instances: [SETOSA, VIRGINICA] }) }, {}, metadataOf({ 'x-sluice-envelope': 'json' }));
    expect(json(response.prediction)).toMatchObject({ predictions: [{ label: 'setosa' }, { label: 'virginica' }] });
  });

  it('answers a body the envelope cannot read with INVALID_ARGUMENT and its code', async () => {
    const failure = await callError(unary(client, 'Predictions', { model_name: 'iris', input: body(SETOSA) }, {}, metadataOf({ 'x-sluice-envelope': 'json' })));
    expect(failure).toMatchObject({ code: 3, errorCode: 'SLUICE_ENVELOPE_INVALID_BODY' });
  });

  it('answers an unknown envelope with INVALID_ARGUMENT', async () => {
    const failure = await callError(unary(client, 'Predictions', { model_name: 'iris', input: body(SETOSA) }, {}, metadataOf({ 'x-sluice-envelope': 'morse' })));
    expect(failure).toMatchObject({ code: 3, errorCode: 'SLUICE_REQUEST_INVALID', details: 'unknown envelope `morse`; known envelopes: body, json, kserve, kservev2' });
  });
});
