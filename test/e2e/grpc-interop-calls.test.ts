import type { ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Metadata, connectivityState, status, type Client, type ClientDuplexStream, type ServiceClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import type { AuthPrincipal, AuthProvider, AuthRequest } from '../../src/sdk/auth/auth.js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { callError, float32Bytes, float32Values, grpcClient, startInfer, unary } from '../support/grpc-clients.js';
import { FRAME_TYPE, startHttp2Tap, type Http2Tap } from '../support/http2-tap.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { openRawGrpcCall, rawGrpcSession } from '../support/raw-grpc-call.js';
import { addStoreModel } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const INFER_PATH = '/inference.GRPCInferenceService/ModelInfer';

interface InferResponse {
  readonly id: string;
  readonly raw_output_contents: Buffer[];
}
interface StreamAnswer {
  readonly error_message: string;
  readonly infer_response: InferResponse;
}

/** Lets every call through, writing down the metadata entries the test names as auth reads them. */
class MetadataRecorder implements AuthProvider {
  readonly name = 'metadata-recorder';
  readonly seen: Record<string, string | undefined>[] = [];

  authenticate(request: AuthRequest): Promise<AuthPrincipal> {
    if (request.header('x-record') !== undefined) {
      this.seen.push(Object.fromEntries(['x-record', 'x-text', 'x-repeated', 'x-blob-bin', 'x-sluice-priority'].map((name) => [name, request.header(name)])));
    }
    return Promise.resolve({ subject: 'anyone', scopes: ['inference'] });
  }
}

/** A request to the `slow` model, which waits at the gate the test holds and opens. */
function slowRequest(id = 'slow'): Record<string, unknown> {
  return { id, model_name: 'slow', inputs: [{ name: 'input', datatype: 'FP32', shape: [1] }], raw_input_contents: [float32Bytes([1])] };
}

/** A request echoing `values` through `echo-fp32`. */
function echoRequest(id: string, values: readonly number[]): Record<string, unknown> {
  return { id, model_name: 'echo-fp32', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, values.length] }], raw_input_contents: [float32Bytes(values)] };
}

const until = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

/**
 * Calls as `@grpc/grpc-js` clients make them, on a real server: keepalive pings, many calls and streams
 * on one channel, deadlines (the client's, and `grpc-timeout` in each unit), metadata, and cancellation
 * of a stream. The `slow` model (one instance, batches of one) waits at a gate the test opens.
 */
describe('gRPC interop: keepalive, concurrency, deadlines, metadata, cancellation', () => {
  let t: TestServer;
  let client: Client;
  let session: ClientHttp2Session;
  let service: ServiceClientConstructor['service'];
  const taps: Http2Tap[] = [];
  const recorder = new MetadataRecorder();
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));
  const inflight = (): number => t.server.core.registry.resolve('slow').scheduler.inflightCount();
  /** `ModelStreamInfer` on `on`, its answers as they come, and its end. */
  const openStream = (on: Client, options: { deadline?: Date } = {}) => {
    const stream = (on as unknown as Record<string, (o: object) => ClientDuplexStream<unknown, StreamAnswer>>)['ModelStreamInfer']?.call(on, options);
    if (stream === undefined) throw new Error('no ModelStreamInfer');
    const answers: StreamAnswer[] = [];
    stream.on('data', (answer: StreamAnswer) => answers.push(answer));
    const ended = new Promise<{ code: number; details: string }>((resolve) => {
      stream.on('error', (error: ServiceError) => {
        resolve({ code: error.code, details: error.details });
      });
      stream.on('status', (s: { code: status; details: string }) => {
        if (s.code === status.OK) resolve({ code: s.code, details: s.details });
      });
    });
    return { stream, answers, ended };
  };

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      guards: { inference: recorder },
      prepare: async (store) => {
        // Room in the queue for every request of the concurrency test at once.
        await addStoreModel(store, 'echo-fp32', (dir) => writeIdentityModel(dir, 'FP32', [-1, -1]), { name: 'echo-fp32', version: '1', jobQueueSize: 1000 });
        await addStoreModel(store, 'slow', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'slow',
          version: '1',
          batching: { maxBatchSize: 1 },
          workers: { min: 1, max: 1 },
        });
      },
    });
    client = grpcClient('oip', t.grpcInference);
    service = (client.constructor as ServiceClientConstructor).service;
    session = rawGrpcSession(t.grpcInference);
  });
  afterAll(async () => {
    runtime.release();
    session.destroy();
    client.close();
    for (const tap of taps) await tap.close();
    await t.close();
  });

  it('answers pings of a client with a short keepalive time while a call runs, and keeps the connection', async () => {
    const tap = await startHttp2Tap(t.grpcInference);
    taps.push(tap);
    const pinging = grpcClient('oip', tap.address, { 'grpc.keepalive_time_ms': 20, 'grpc.keepalive_timeout_ms': 10_000 });
    runtime.hold();
    const running = startInfer(pinging, slowRequest('kept'));
    await until(() => (tap.fromClient.frames.get(FRAME_TYPE.ping) ?? 0) >= 5 && tap.fromServer.pingAcks >= 5);
    runtime.release();
    expect(await running.answer).toMatchObject({ id: 'kept' });
    expect(await unary(pinging, 'ModelInfer', echoRequest('next', [1]))).toMatchObject({ id: 'next' });
    expect({ connections: tap.connections(), goaways: tap.fromServer.frames.get(FRAME_TYPE.goaway) ?? 0, state: pinging.getChannel().getConnectivityState(false) }).toEqual({
      connections: 1,
      goaways: 0,
      state: connectivityState.READY,
    });
    pinging.close();
  });

  it('answers 200 unary calls and 20 streams at once on one channel, each with its own answers', async () => {
    const unaries = Array.from({ length: 200 }, (_, i) => unary<InferResponse>(client, 'ModelInfer', echoRequest(`u${String(i)}`, [i, -i])));
    const streams = Array.from({ length: 20 }, (_, s) => {
      const opened = openStream(client);
      for (let r = 0; r < 5; r++) opened.stream.write(echoRequest(`s${String(s)}.${String(r)}`, [s, r]));
      opened.stream.end();
      return opened;
    });
    const answered = await Promise.all(unaries);
    expect(answered.map((a) => [a.id, float32Values(a.raw_output_contents[0] ?? Buffer.alloc(0))])).toEqual(Array.from({ length: 200 }, (_, i) => [`u${String(i)}`, [i, -i]]));
    for (const [s, { answers, ended }] of streams.entries()) {
      expect(await ended).toMatchObject({ code: status.OK });
      const got = answers.map((a) => [a.infer_response.id, float32Values(a.infer_response.raw_output_contents[0] ?? Buffer.alloc(0))]).sort();
      expect(got).toEqual(Array.from({ length: 5 }, (_, r) => [`s${String(s)}.${String(r)}`, [s, r]]));
    }
  });

  describe('deadlines', () => {
    it.each([
      ['milliseconds', '300m'],
      ['microseconds', '300000u'],
      ['nanoseconds', '99999999n'],
      ['seconds', '1S'],
    ])('answers DEADLINE_EXCEEDED when a grpc-timeout in %s passes while the call is queued, and its work never runs', async (_unit, timeout) => {
      const startedBefore = runtime.runsStarted;
      runtime.hold();
      const running = startInfer(client, slowRequest('running'));
      await runtime.untilRunsStarted(startedBefore + 1);
      const call = openRawGrpcCall(session, INFER_PATH, frameMessage(service['ModelInfer']?.requestSerialize(slowRequest('late')) ?? Buffer.alloc(0)), { 'grpc-timeout': timeout });
      call.stream.end();
      const answer = await call.answer;
      // The transport's own timer or the scheduler's deadline sweep, whichever comes first, answers it.
      expect(answer.status).toBe(String(status.DEADLINE_EXCEEDED));
      await until(() => inflight() === 1);
      runtime.release();
      await running.answer;
      expect(runtime.runsStarted - startedBefore).toBe(1);
    });

    it.each([['minutes', '1M'], ['hours', '1H']])('serves a call whose grpc-timeout in %s is still far off', async (_unit, timeout) => {
      const call = openRawGrpcCall(session, INFER_PATH, frameMessage(service['ModelInfer']?.requestSerialize(slowRequest('far')) ?? Buffer.alloc(0)), { 'grpc-timeout': timeout });
      call.stream.end();
      expect((await call.answer).status).toBe('0');
    });

    it('ends a stream whose client deadline passes with DEADLINE_EXCEEDED, and its queued requests never run', async () => {
      const startedBefore = runtime.runsStarted;
      runtime.hold();
      const running = startInfer(client, slowRequest('running'));
      await runtime.untilRunsStarted(startedBefore + 1);
      const { stream, ended } = openStream(client, { deadline: new Date(Date.now() + 300) });
      stream.write(slowRequest('queued-1'));
      stream.write(slowRequest('queued-2'));
      await until(() => inflight() === 3);
      expect(await ended).toMatchObject({ code: status.DEADLINE_EXCEEDED });
      await until(() => inflight() === 1);
      runtime.release();
      await running.answer;
      expect(runtime.runsStarted - startedBefore).toBe(1);
    });
  });

  it('reads text, repeated and binary metadata as sent, and the client reads the trailers of the answer', async () => {
    const metadata = new Metadata();
    metadata.set('x-record', 'yes');
    metadata.set('x-text', 'plain value');
    metadata.add('x-repeated', 'one');
    metadata.add('x-repeated', 'two');
    metadata.add('x-blob-bin', Buffer.from([0, 255, 10, 13]));
    metadata.add('x-blob-bin', Buffer.from('second'));
    metadata.set('x-sluice-priority', 'high');
    const error = await callError(unary(client, 'ModelInfer', echoRequest('meta', [1]), {}, metadata));
    expect(recorder.seen.at(-1)).toEqual({ 'x-record': 'yes', 'x-text': 'plain value', 'x-repeated': 'one, two', 'x-blob-bin': undefined, 'x-sluice-priority': 'high' });
    // The knob was read from the metadata, and the refusal came back with its trailers.
    expect(error).toEqual({ code: status.INVALID_ARGUMENT, details: 'the x-sluice-priority metadata must be an integer of at least 1, got "high"', errorCode: 'SLUICE_REQUEST_INVALID' });
  });

  it('stops a ModelStreamInfer stream the client cancels mid-stream: its queued requests leave the queue and never run', async () => {
    const startedBefore = runtime.runsStarted;
    runtime.hold();
    const { stream, answers, ended } = openStream(client);
    stream.write(slowRequest('first'));
    await runtime.untilRunsStarted(startedBefore + 1);
    stream.write(slowRequest('second'));
    stream.write(slowRequest('third'));
    await until(() => inflight() === 3);
    stream.cancel();
    expect(await ended).toMatchObject({ code: status.CANCELLED });
    await until(() => inflight() === 1);
    runtime.release();
    await until(() => inflight() === 0);
    expect({ runs: runtime.runsStarted - startedBefore, answers: answers.length }).toEqual({ runs: 1, answers: 0 });
  });
});
