import type { ClientHttp2Session } from 'node:http2';
import { gzipSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compressionAlgorithms, status, type Client, type ServiceClientConstructor } from '@grpc/grpc-js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import { callError, float32Values, grpcClient, unary } from '../support/grpc-clients.js';
import { startHttp2Tap, type Http2Tap } from '../support/http2-tap.js';
import { openRawGrpcCall, rawGrpcSession, unframeMessages } from '../support/raw-grpc-call.js';
import { paddedToSize } from '../support/sized-grpc-message.js';
import { addEchoModels } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The server's receive limit: a message may inflate to this and no more. */
const RECEIVE_LIMIT = 1 << 20;
const INFER_PATH = '/inference.GRPCInferenceService/ModelInfer';
const STREAM_PATH = '/inference.GRPCInferenceService/ModelStreamInfer';

interface InferResponse {
  readonly id: string;
  readonly raw_output_contents: Buffer[];
}

/** `count` FP32 values that repeat (so they compress well), as raw little-endian bytes. */
function patterned(count: number): Buffer {
  return Buffer.from(Float32Array.from({ length: count }, (_, i) => i % 16).buffer);
}

/** A `ModelInfer` request echoing `values` (raw FP32 bytes) through `echo-fp32`. */
function echoRequest(id: string, values: Buffer): { readonly id: string } & Record<string, unknown> {
  return { id, model_name: 'echo-fp32', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, values.length / 4] }], raw_input_contents: [values] };
}

/**
 * Compressed calls as gRPC clients make them: `@grpc/grpc-js` channels compressing with gzip or deflate
 * (`grpc.default_compression_algorithm`), seen through a tap that counts the bytes each way, and raw
 * HTTP/2 calls choosing their compression call by call and message by message.
 */
describe('gRPC interop: compression', () => {
  let t: TestServer;
  let service: ServiceClientConstructor['service'];
  let session: ClientHttp2Session;
  const taps: Http2Tap[] = [];
  const clients: Client[] = [];

  /** A client compressing with `algorithm`, through a tap of its own. */
  const compressingClient = async (algorithm: compressionAlgorithms): Promise<{ client: Client; tap: Http2Tap }> => {
    const tap = await startHttp2Tap(t.grpcInference);
    const client = grpcClient('oip', tap.address, { 'grpc.default_compression_algorithm': algorithm });
    taps.push(tap);
    clients.push(client);
    return { client, tap };
  };
  const serialized = (request: object): Buffer => service['ModelInfer']?.requestSerialize(request) ?? Buffer.alloc(0);
  const deserialized = (bytes: Buffer): InferResponse => service['ModelInfer']?.responseDeserialize(bytes) as InferResponse;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: [], config: { grpc: { maxReceiveMessageBytes: RECEIVE_LIMIT } }, prepare: addEchoModels });
    const plain = grpcClient('oip', t.grpcInference);
    service = (plain.constructor as ServiceClientConstructor).service;
    clients.push(plain);
    session = rawGrpcSession(t.grpcInference);
  });
  afterAll(async () => {
    session.destroy();
    for (const client of clients) client.close();
    for (const tap of taps) await tap.close();
    await t.close();
  });

  it.each([
    ['gzip', compressionAlgorithms.gzip],
    ['deflate', compressionAlgorithms.deflate],
  ])('answers a grpc-js channel compressing with %s, call after call, and the client reads the compressed answers', async (_name, algorithm) => {
    const { client, tap } = await compressingClient(algorithm);
    const values = patterned(2048); // 8 KiB a message each way: answers up to 16 KiB are compressed
    for (const id of ['first', 'second']) {
      const response = await unary<InferResponse>(client, 'ModelInfer', echoRequest(id, values));
      expect({ id: response.id, equal: Buffer.from(response.raw_output_contents[0] ?? []).equals(values) }).toEqual({ id, equal: true });
    }
    // Both calls went compressed (the server's grpc-accept-encoding keeps the client compressing), and so did both answers.
    expect(tap.fromClient.dataBytes).toBeLessThan(values.length / 4);
    expect(tap.fromServer.dataBytes).toBeLessThan(values.length / 4);
  });

  it('answers a compressed call whose message inflates to exactly the receive limit', async () => {
    const { client } = await compressingClient(compressionAlgorithms.gzip);
    const request = paddedToSize(echoRequest('at-limit', Buffer.alloc(RECEIVE_LIMIT - 256)), RECEIVE_LIMIT, serialized);
    expect((await unary<InferResponse>(client, 'ModelInfer', request)).id).toBe(request.id);
  });

  it.each([
    ['4 MiB', 4 << 20],
    ['32 MiB', 32 << 20],
  ])('refuses a gzip bomb (a message of a few KiB inflating to %s) with RESOURCE_EXHAUSTED naming the limit, and the channel keeps serving', async (_size, inflated) => {
    const { client, tap } = await compressingClient(compressionAlgorithms.gzip);
    const error = await callError(unary(client, 'ModelInfer', echoRequest('bomb', Buffer.alloc(inflated))));
    expect(error).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details: `Received gzip-compressed message that decompresses to more than ${String(RECEIVE_LIMIT)} bytes, the limit (grpc.maxReceiveMessageBytes); send a smaller message, or raise the limit`,
      errorCode: undefined,
    });
    expect(tap.fromClient.dataBytes).toBeLessThan(RECEIVE_LIMIT); // small on the wire: the limit is on what it inflates to
    const values = patterned(4);
    expect((await unary<InferResponse>(client, 'ModelInfer', echoRequest('after', values))).id).toBe('after');
    expect(tap.connections()).toBe(1);
  });

  it('answers calls that each choose their compression on one connection: gzip, deflate, none', async () => {
    const values = patterned(1024);
    const message = serialized(echoRequest('per-call', values));
    const bodies: [Record<string, string>, Buffer][] = [
      [{ 'grpc-encoding': 'gzip' }, frameMessage(gzipSync(message), true)],
      [{ 'grpc-encoding': 'deflate' }, frameMessage(deflateSync(message), true)],
      [{}, frameMessage(message)],
    ];
    const answers = await Promise.all(
      bodies.map(([headers, body]) => {
        const call = openRawGrpcCall(session, INFER_PATH, body, headers);
        call.stream.end();
        return call.answer;
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(['0', '0', '0']);
    expect(answers.map((a) => float32Values(deserialized(unframeMessages(a.body)[0] ?? Buffer.alloc(0)).raw_output_contents[0] ?? Buffer.alloc(0)).slice(0, 3))).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
    ]);
  });

  it('answers every request of a ModelStreamInfer stream whose messages are compressed or not, one by one', async () => {
    const request = (id: string): Buffer => service['ModelStreamInfer']?.requestSerialize(echoRequest(id, patterned(4))) ?? Buffer.alloc(0);
    const body = Buffer.concat([frameMessage(gzipSync(request('a')), true), frameMessage(request('b')), frameMessage(gzipSync(request('c')), true)]);
    const call = openRawGrpcCall(session, STREAM_PATH, body, { 'grpc-encoding': 'gzip' });
    call.stream.end();
    const answer = await call.answer;
    const ids = unframeMessages(answer.body).map((bytes) => (service['ModelStreamInfer']?.responseDeserialize(bytes) as { infer_response: { id: string } }).infer_response.id);
    expect({ status: answer.status, ids: ids.sort() }).toEqual({ status: '0', ids: ['a', 'b', 'c'] });
  });

  it('answers UNIMPLEMENTED to a message in an encoding it does not read, listing the ones it reads in grpc-accept-encoding', async () => {
    const call = openRawGrpcCall(session, INFER_PATH, frameMessage(Buffer.from('compressed by brotli'), true), { 'grpc-encoding': 'br' });
    let accepts: unknown;
    call.stream.on('response', (headers) => (accepts = headers['grpc-accept-encoding']));
    call.stream.end();
    const answer = await call.answer;
    expect({ status: answer.status, accepts }).toEqual({ status: String(status.UNIMPLEMENTED), accepts: 'identity,deflate,gzip' });
  });
});
