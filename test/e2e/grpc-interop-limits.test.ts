import type { ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client, type ServiceClientConstructor } from '@grpc/grpc-js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeZerosOfShapeModel } from '../support/onnx-models.js';
import { openRawGrpcCall, rawGrpcSession, unframeMessages } from '../support/raw-grpc-call.js';
import { paddedToSize } from '../support/sized-grpc-message.js';
import { addEchoModels, addStoreModel } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The server's limits, and the grpc-js client's own (smaller), all in bytes of a serialized message. */
const SERVER_RECEIVE = 64 * 1024;
const SERVER_SEND = 128 * 1024;
const CLIENT_RECEIVE = 96 * 1024;
const CLIENT_SEND = 48 * 1024;
const INFER_PATH = '/inference.GRPCInferenceService/ModelInfer';

type Request = { readonly id: string } & Record<string, unknown>;

/** A request to `echo-fp32` with `count` FP32 values: its answer is about as large. */
function echoRequest(id: string, count: number): Request {
  return { id, model_name: 'echo-fp32', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, count] }], raw_input_contents: [Buffer.alloc(4 * count)] };
}

/** A small request to `zeros` whose answer holds `columns` FP32 zeros (raw, since the request is). */
function zerosRequest(id: string, columns: number): Request {
  const shape = Buffer.alloc(16);
  shape.writeBigInt64LE(1n, 0);
  shape.writeBigInt64LE(BigInt(columns), 8);
  return { id, model_name: 'zeros', inputs: [{ name: 'shape', datatype: 'INT64', shape: [2] }], raw_input_contents: [shape] };
}

/**
 * Messages just at and just over the message size limits, on both sides: the server's
 * `grpc.maxReceiveMessageBytes` and `grpc.maxSendMessageBytes`, and a grpc-js client's
 * `grpc.max_receive_message_length` and `grpc.max_send_message_length`. Requests and answers are padded
 * through `id` (echoed in the answer) to the byte.
 */
describe('gRPC interop: messages at the size limits', () => {
  let t: TestServer;
  let client: Client;
  let limited: Client;
  let session: ClientHttp2Session;
  let service: ServiceClientConstructor['service'];
  const serialize = (request: object): Buffer => service['ModelInfer']?.requestSerialize(request) ?? Buffer.alloc(0);
  const requestOf = (count: number, bytes: number): Request => paddedToSize(echoRequest(`r${String(bytes)}-`, count), bytes, serialize);

  /** The bytes of the answer to `request`, as the server sends it (read on a raw call, where no client limit applies). */
  const answerBytes = async (request: Request): Promise<number> => {
    const call = openRawGrpcCall(session, INFER_PATH, frameMessage(serialize(request)));
    call.stream.end();
    const answer = await call.answer;
    if (answer.status !== '0') throw new Error(`the sizing call failed: ${String(answer.status)} ${String(answer.message)}`);
    return unframeMessages(answer.body)[0]?.length ?? 0;
  };
  /**
   * A `zeros` request whose answer is exactly `bytes`: its id is padded, and the answer echoes it. The id
   * starts at 128 characters, so that its length prefix (2 bytes up to 16 383) does not grow with the
   * padding and no sizing call goes over the send limit.
   */
  const answeredWith = async (bytes: number): Promise<Request> => {
    const base = zerosRequest(`a${String(bytes)}-${'x'.repeat(128)}`, Math.floor((bytes - 1024) / 4));
    let padding = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      const request = { ...base, id: base.id + 'x'.repeat(padding) };
      const size = await answerBytes(request);
      if (size === bytes) return request;
      padding += bytes - size;
    }
    throw new Error(`no answer of exactly ${String(bytes)} bytes`);
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      config: { grpc: { maxReceiveMessageBytes: SERVER_RECEIVE, maxSendMessageBytes: SERVER_SEND } },
      prepare: async (store) => {
        await addEchoModels(store);
        await addStoreModel(store, 'zeros', writeZerosOfShapeModel, { name: 'zeros', version: '1' });
      },
    });
    client = grpcClient('oip', t.grpcInference);
    limited = grpcClient('oip', t.grpcInference, { 'grpc.max_receive_message_length': CLIENT_RECEIVE, 'grpc.max_send_message_length': CLIENT_SEND });
    service = (client.constructor as ServiceClientConstructor).service;
    session = rawGrpcSession(t.grpcInference);
  });
  afterAll(async () => {
    session.destroy();
    client.close();
    limited.close();
    await t.close();
  });

  describe('the server’s receive limit', () => {
    it('answers a request of exactly grpc.maxReceiveMessageBytes', async () => {
      const request = requestOf(SERVER_RECEIVE / 4 - 64, SERVER_RECEIVE);
      expect(serialize(request).length).toBe(SERVER_RECEIVE);
      expect(await unary(client, 'ModelInfer', request)).toMatchObject({ id: request.id });
    });

    it('refuses a request one byte over it with RESOURCE_EXHAUSTED', async () => {
      const request = requestOf(SERVER_RECEIVE / 4 - 64, SERVER_RECEIVE + 1);
      expect(await callError(unary(client, 'ModelInfer', request))).toEqual({
        code: status.RESOURCE_EXHAUSTED,
        details: `Received message larger than max (${String(SERVER_RECEIVE + 1)} vs. ${String(SERVER_RECEIVE)})`,
        errorCode: undefined,
      });
    });
  });

  describe('the server’s send limit', () => {
    const limit = SERVER_SEND;

    it('sends an answer of exactly grpc.maxSendMessageBytes', async () => {
      const request = await answeredWith(limit);
      expect(await unary(client, 'ModelInfer', request)).toMatchObject({ id: request.id });
    });

    it('refuses to send an answer one byte over it, with RESOURCE_EXHAUSTED', async () => {
      const request = await answeredWith(limit);
      const error = await callError(unary(client, 'ModelInfer', { ...request, id: `${request.id}x` }));
      expect(error).toEqual({ code: status.RESOURCE_EXHAUSTED, details: `Sent message larger than max (${String(limit + 1)} vs. ${String(limit)})`, errorCode: undefined });
    });
  });

  describe('a grpc-js client’s own limits', () => {
    it('reads an answer of exactly its grpc.max_receive_message_length', async () => {
      const request = await answeredWith(CLIENT_RECEIVE);
      expect(await unary(limited, 'ModelInfer', request)).toMatchObject({ id: request.id });
    });

    it('refuses an answer one byte over its grpc.max_receive_message_length, and keeps its connection serving', async () => {
      const request = await answeredWith(CLIENT_RECEIVE + 1);
      expect(await callError(unary(limited, 'ModelInfer', request))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
      expect(await unary(limited, 'ModelInfer', echoRequest('after', 4))).toMatchObject({ id: 'after' });
    });

    it('sends a request of exactly its grpc.max_send_message_length, and refuses one a byte over before sending it', async () => {
      const request = requestOf(CLIENT_SEND / 4 - 64, CLIENT_SEND);
      expect(await unary(limited, 'ModelInfer', request)).toMatchObject({ id: request.id });
      const over = requestOf(CLIENT_SEND / 4 - 64, CLIENT_SEND + 1);
      expect(await callError(unary(limited, 'ModelInfer', over))).toMatchObject({
        code: status.RESOURCE_EXHAUSTED,
        details: `Attempted to send message with a size larger than ${String(CLIENT_SEND)}`,
      });
    });
  });
});
