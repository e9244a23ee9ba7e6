import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentials, loadPackageDefinition, status, type Client, type ClientDuplexStream, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { SluiceError } from '../../src/sdk/errors/index.js';
import { packageRoot } from '../../src/package-files/package-root.js';
import type { AuthPrincipal, AuthProvider, AuthRequest } from '../../src/sdk/auth/auth.js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import { Gate } from '../support/gate.js';
import { callError, grpcClient, metadataOf, unary } from '../support/grpc-clients.js';
import { openRawGrpcCall, rawGrpcSession, rawGrpcSessionRepeating, serverHasRead, unframeMessages } from '../support/raw-grpc-call.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const TLS_DIR = join(packageRoot(), 'test', 'fixtures', 'tls');

/** Lists the services of a port through server reflection (v1), as grpcurl does. */
async function reflectedServices(address: string): Promise<string[]> {
  const definition = loadSync('grpc/reflection/v1/reflection.proto', {
    keepCase: true,
    includeDirs: [join(packageRoot(), 'node_modules', '@grpc', 'reflection', 'build', 'proto')],
  });
  const root = loadPackageDefinition(definition) as unknown as { grpc: { reflection: { v1: { ServerReflection: new (a: string, c: unknown) => Client } } } };
  const client = new root.grpc.reflection.v1.ServerReflection(address, credentials.createInsecure());
  const call = (client as unknown as { ServerReflectionInfo(): ClientDuplexStream<unknown, { list_services_response?: { service: { name: string }[] } }> }).ServerReflectionInfo();
  const names = await new Promise<string[]>((resolve, reject) => {
    call.on('data', (response: { list_services_response?: { service: { name: string }[] } }) => {
      resolve((response.list_services_response?.service ?? []).map((s) => s.name));
      call.end();
    });
    call.on('error', reject);
    call.write({ list_services: '' });
  });
  client.close();
  return names.sort();
}

/** A token guard for tests: `Bearer good` passes, `Bearer reader` is forbidden, anything else is refused. */
class FakeTokenGuard implements AuthProvider {
  readonly name = 'fake-token';
  readonly seen: { api: string; transport: string; method: string; path: string }[] = [];

  authenticate(request: AuthRequest): Promise<AuthPrincipal> {
    this.seen.push({ api: request.api, transport: request.transport, method: request.method, path: request.path });
    const header = request.header('authorization');
    if (header === undefined) return Promise.reject(new SluiceError('SLUICE_AUTH_MISSING_CREDENTIALS', 'send authorization: Bearer <token>'));
    if (header === 'Bearer good') return Promise.resolve({ subject: 'tester', scopes: ['inference', 'management'] });
    if (header === 'Bearer reader') return Promise.reject(new SluiceError('SLUICE_AUTH_FORBIDDEN', 'this token may not use this API; use a token with its scope'));
    return Promise.reject(new SluiceError('SLUICE_AUTH_INVALID_CREDENTIALS', 'the token is not valid; check it or ask for a new one'));
  }
}

describe('gRPC health checking and server reflection', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers SERVING for the port and for each of its services', async () => {
    const inference = grpcClient('health', t.grpcInference);
    const management = grpcClient('health', t.grpcManagement);
    expect(await unary(inference, 'Check', { service: '' })).toEqual({ status: 'SERVING' });
    expect(await unary(inference, 'Check', { service: 'inference.GRPCInferenceService' })).toEqual({ status: 'SERVING' });
    expect(await unary(management, 'Check', { service: 'org.pytorch.serve.grpc.management.ManagementAPIsService' })).toEqual({ status: 'SERVING' });
    inference.close();
    management.close();
  });

  it('answers NOT_FOUND for a service the port does not have', async () => {
    const client = grpcClient('health', t.grpcManagement);
    expect(await callError(unary(client, 'Check', { service: 'inference.GRPCInferenceService' }))).toMatchObject({ code: status.NOT_FOUND, errorCode: 'SLUICE_ROUTE_NOT_FOUND' });
    client.close();
  });

  it('lists each port’s services through reflection', async () => {
    expect(await reflectedServices(t.grpcInference)).toEqual([
      'grpc.health.v1.Health',
      'inference.GRPCInferenceService',
      'org.pytorch.serve.grpc.inference.InferenceAPIsService',
    ]);
    expect(await reflectedServices(t.grpcManagement)).toEqual(['grpc.health.v1.Health', 'org.pytorch.serve.grpc.management.ManagementAPIsService']);
  });
});

describe('gRPC auth guards', () => {
  let t: TestServer;
  const inferenceGuard = new FakeTokenGuard();
  const managementGuard = new FakeTokenGuard();
  let oip: Client;
  let management: Client;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], guards: { inference: inferenceGuard, management: managementGuard } });
    oip = grpcClient('oip', t.grpcInference);
    management = grpcClient('torchserveManagement', t.grpcManagement);
  });
  afterAll(async () => {
    oip.close();
    management.close();
    await t.close();
  });

  it('refuses a call without a token with UNAUTHENTICATED', async () => {
    expect(await callError(unary(oip, 'ServerReady', {}))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'send authorization: Bearer <token>',
      errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS',
    });
  });

  it('refuses an invalid token with UNAUTHENTICATED', async () => {
    expect(await callError(unary(oip, 'ServerReady', {}, {}, metadataOf({ authorization: 'Bearer wrong' })))).toMatchObject({
      code: status.UNAUTHENTICATED,
      errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS',
    });
  });

  it('refuses a token without the scope with PERMISSION_DENIED', async () => {
    expect(await callError(unary(oip, 'ServerReady', {}, {}, metadataOf({ authorization: 'Bearer reader' })))).toMatchObject({
      code: status.PERMISSION_DENIED,
      errorCode: 'SLUICE_AUTH_FORBIDDEN',
    });
  });

  it('lets a valid token through, showing the guard the call as gRPC', async () => {
    expect(await unary(oip, 'ServerReady', {}, {}, metadataOf({ authorization: 'Bearer good' }))).toEqual({ ready: true });
    expect(inferenceGuard.seen.at(-1)).toEqual({ api: 'inference', transport: 'grpc', method: 'POST', path: '/inference.GRPCInferenceService/ServerReady' });
  });

  it('refuses two authorization entries with UNAUTHENTICATED, even when the first holds a valid token', async () => {
    const session = rawGrpcSessionRepeating(t.grpcInference, 'authorization', 'Bearer good');
    const call = openRawGrpcCall(session, '/inference.GRPCInferenceService/ServerReady', frameMessage(new Uint8Array()), { authorization: 'Bearer good' });
    call.stream.end();
    const answer = await call.answer;
    session.close();
    expect({ status: answer.status, errorCode: answer.errorCode }).toEqual({ status: String(status.UNAUTHENTICATED), errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('runs no handler for a refused call', async () => {
    expect(await callError(unary(management, 'UnregisterModel', { model_name: 'iris' }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(managementGuard.seen.at(-1)).toMatchObject({ api: 'management', path: '/org.pytorch.serve.grpc.management.ManagementAPIsService/UnregisterModel' });
    expect(t.server.core.registry.has('iris')).toBe(true);
  });

  it('leaves health checks open to load balancers', async () => {
    const health = grpcClient('health', t.grpcInference);
    expect(await unary(health, 'Check', { service: '' })).toEqual({ status: 'SERVING' });
    health.close();
  });
});

describe('gRPC over TLS', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], config: { grpc: { tls: { certFile: join(TLS_DIR, 'localhost.crt'), keyFile: join(TLS_DIR, 'localhost.key') } } } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves clients that trust the certificate', async () => {
    const Live = (grpcClient('oip', t.grpcInference) as unknown as { constructor: new (a: string, c: unknown) => Client }).constructor;
    const client = new Live(t.grpcInference, credentials.createSsl(readFileSync(join(TLS_DIR, 'localhost.crt'))));
    expect(await unary(client, 'ServerLive', {})).toEqual({ live: true });
    client.close();
  });

  it('does not answer plaintext clients', async () => {
    const client = grpcClient('oip', t.grpcInference);
    expect(await callError(unary(client, 'ServerLive', {}, { deadline: Date.now() + 2000 }))).toMatchObject({ code: expect.any(Number) as unknown });
    client.close();
  });

  it('refuses to start with a certificate but no key', async () => {
    await expect(startTestServer({ demoModels: [], config: { grpc: { tls: { certFile: join(TLS_DIR, 'localhost.crt'), keyFile: '' } } } })).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      message: '`grpc.tls.certFile` and `grpc.tls.keyFile` go together: set both for TLS, or neither for plaintext',
    });
  });
});

/** A guard that lets every call through, once the test opens its gate. */
class GatedGuard implements AuthProvider {
  readonly name = 'gated';
  readonly gate = new Gate();

  async authenticate(): Promise<AuthPrincipal> {
    await this.gate.pass();
    return { subject: 'tester', scopes: ['inference'] };
  }
}

describe('gRPC streams behind an auth guard', () => {
  const guard = new GatedGuard();
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], guards: { inference: guard } });
  });
  afterAll(async () => {
    guard.gate.release();
    await t.close();
  });

  it('answers the ModelStreamInfer messages that arrived while the guard was checking the call', async () => {
    const client = grpcClient('oip', t.grpcInference);
    const { service } = client.constructor as ServiceClientConstructor;
    client.close();
    const method = service['ModelStreamInfer'];
    if (method === undefined) throw new Error('no ModelStreamInfer');
    const messages = ['a', 'b', 'c'].map((id) =>
      frameMessage(method.requestSerialize({ id, model_name: 'iris', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: [5.1, 3.5, 1.4, 0.2] } }] })),
    );
    guard.gate.hold();
    const session = rawGrpcSession(t.grpcInference);
    const chunks: Buffer[] = [];
    const call = openRawGrpcCall(session, '/inference.GRPCInferenceService/ModelStreamInfer', Buffer.concat(messages));
    call.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    call.stream.end();
    await guard.gate.untilArrived(1);
    await serverHasRead(session); // every message is at the server, the guard still undecided
    guard.gate.release();
    const answer = await call.answer;
    session.close();
    const ids = unframeMessages(Buffer.concat(chunks)).map((bytes) => (method.responseDeserialize(bytes) as { infer_response: { id: string } }).infer_response.id);
    expect({ status: answer.status, ids: ids.sort() }).toEqual({ status: String(status.OK), ids: ['a', 'b', 'c'] });
  });
});
