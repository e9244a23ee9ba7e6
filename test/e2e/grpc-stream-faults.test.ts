import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ClientHttp2Session } from 'node:http2';
import { status, type Client, type ClientDuplexStream, type ServiceClientConstructor, type StatusObject } from '@grpc/grpc-js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { openRawGrpcCall, rawGrpcSession, unframeMessages, type RawGrpcAnswer } from '../support/raw-grpc-call.js';
import { addStoreModel } from '../support/store-models.js';
import { callError, float32Bytes, grpcClient, unary } from '../support/grpc-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const STREAM_PATH = '/inference.GRPCInferenceService/ModelStreamInfer';
/** The send limit of the test server: an echo of more than about 1 000 FP32 values is over it. */
const MAX_SEND_BYTES = 4096;

interface StreamAnswer {
  readonly error_message: string;
  readonly infer_response: { readonly id: string; readonly parameters: Readonly<Record<string, { readonly string_param?: string; readonly bool_param?: boolean }>> };
}

/** A request to the `echo` identity model (FP32, `[-1]`) of `count` values; its answer is as large. */
function echoRequest(id: string, count = 4): Record<string, unknown> {
  return { id, model_name: 'echo', inputs: [{ name: 'input', datatype: 'FP32', shape: [count] }], raw_input_contents: [float32Bytes(new Array<number>(count).fill(1))] };
}

/** `ModelStreamInfer` of a client, writing `requests`, then half-closing; its answers and status. */
async function streamOf(client: Client, requests: readonly unknown[]): Promise<{ answers: StreamAnswer[]; status: StatusObject }> {
  const stream = (client as unknown as Record<string, () => ClientDuplexStream<unknown, StreamAnswer>>)['ModelStreamInfer']?.call(client);
  if (stream === undefined) throw new Error('no ModelStreamInfer');
  const answers: StreamAnswer[] = [];
  stream.on('data', (answer: StreamAnswer) => answers.push(answer));
  stream.on('error', () => undefined); // the status says it
  const ended = new Promise<StatusObject>((resolve) => stream.on('status', resolve));
  for (const request of requests) stream.write(request);
  stream.end();
  return { answers, status: await ended };
}

describe('ModelStreamInfer: a message that cannot be read, an answer over the send limit', () => {
  let t: TestServer;
  let client: Client;
  let session: ClientHttp2Session;
  let service: ServiceClientConstructor['service'];

  /** `request`, serialized and length-prefixed as a client sends it. */
  const framed = (request: unknown): Buffer => frameMessage(service['ModelStreamInfer']?.requestSerialize(request) ?? Buffer.alloc(0));
  /** The ids the raw call was answered for (sorted: answers come as requests finish), with `:error` for an error_message. */
  const answeredIds = (answer: RawGrpcAnswer): string[] =>
    unframeMessages(answer.body)
      .map((bytes) => service['ModelStreamInfer']?.responseDeserialize(bytes) as StreamAnswer)
      .map((a) => (a.error_message === '' ? a.infer_response.id : `${a.infer_response.id}:error`))
      .sort();
  const message = (answer: RawGrpcAnswer): string | undefined => (answer.message === undefined ? undefined : decodeURIComponent(answer.message));

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      config: { grpc: { maxReceiveMessageBytes: 65536, maxSendMessageBytes: MAX_SEND_BYTES } },
      prepare: async (store) => {
        await addStoreModel(store, 'echo', (dir) => writeIdentityModel(dir, 'FP32', [-1]), { name: 'echo', version: '1' });
      },
    });
    client = grpcClient('oip', t.grpcInference);
    service = (client.constructor as ServiceClientConstructor).service;
    session = rawGrpcSession(t.grpcInference);
  });
  afterAll(async () => {
    session.destroy();
    client.close();
    await t.close();
  });

  // Each body goes out in one write, so the server reads the good requests and the bad message together.
  it('answers the requests read before a message that does not decode, then ends the stream INTERNAL', async () => {
    const garbage = frameMessage(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    const call = openRawGrpcCall(session, STREAM_PATH, Buffer.concat([framed(echoRequest('a')), framed(echoRequest('b')), garbage, framed(echoRequest('after'))]));
    call.stream.end();
    const answer = await call.answer;
    expect(answeredIds(answer)).toEqual(['a', 'b']);
    expect([answer.status, message(answer)]).toEqual([String(status.INTERNAL), 'Error deserializing request']);
  });

  it('answers the requests read before a message cut short by the end of the stream, then ends the stream INTERNAL', async () => {
    const call = openRawGrpcCall(session, STREAM_PATH, Buffer.concat([framed(echoRequest('a')), framed(echoRequest('b')), framed(echoRequest('c')), Buffer.from([0, 0, 0, 0, 50, 1])]));
    call.stream.end();
    const answer = await call.answer;
    expect(answeredIds(answer)).toEqual(['a', 'b', 'c']);
    expect([answer.status, message(answer)]).toEqual([String(status.INTERNAL), 'the request ended inside a message (a truncated length-prefixed message)']);
  });

  it('answers the requests read before a length prefix over the receive limit, then ends the stream RESOURCE_EXHAUSTED without reading on', async () => {
    // The client never half-closes: it would go on uploading the 2 GiB message it announced.
    const call = openRawGrpcCall(session, STREAM_PATH, Buffer.concat([framed(echoRequest('a')), Buffer.from([0, 0x7f, 0xff, 0xff, 0xff])]));
    const answer = await call.answer;
    expect(answeredIds(answer)).toEqual(['a']);
    expect([answer.status, message(answer)]).toEqual([String(status.RESOURCE_EXHAUSTED), 'Received message larger than max (2147483647 vs. 65536)']);
    expect(answer.rstCode).toBe(0); // RST_STREAM(NO_ERROR) after the status: nothing more is read
  });

  it('answers a request whose answer is over grpc.maxSendMessageBytes with its own error_message, and the stream goes on', async () => {
    const { answers, status: ended } = await streamOf(client, [echoRequest('s1'), echoRequest('big', 2000), echoRequest('s2')]);
    expect(ended.code).toBe(status.OK);
    const byId = (id: string): StreamAnswer[] => answers.filter((a) => a.infer_response.id === id);
    expect(byId('s1').map((a) => a.error_message)).toEqual(['']);
    expect(byId('s2').map((a) => a.error_message)).toEqual(['']);
    const [big] = byId('big');
    expect(byId('big')).toHaveLength(1);
    expect(big?.error_message).toMatch(new RegExp(`^the answer to this request is \\d+ bytes, over grpc\\.maxSendMessageBytes \\(${String(MAX_SEND_BYTES)}\\); `));
    expect(big?.error_message).toContain('raise grpc.maxSendMessageBytes');
    expect(big?.infer_response.parameters['triton_final_response']?.bool_param).toBe(true);
    expect(big?.infer_response.parameters['sluice_error_code']?.string_param).toBe('SLUICE_RESPONSE_TOO_LARGE');
  });

  it('still refuses a unary ModelInfer whose answer is over grpc.maxSendMessageBytes with RESOURCE_EXHAUSTED', async () => {
    const error = await callError(unary(client, 'ModelInfer', echoRequest('big', 2000)));
    expect(error.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(error.details).toMatch(new RegExp(`^Sent message larger than max \\(\\d+ vs\\. ${String(MAX_SEND_BYTES)}\\)$`));
  });
});
