import { afterEach, describe, expect, it } from '@jest/globals';
import { connect } from 'node:http2';
import { status, type Client, type ClientDuplexStream, type ServiceClientConstructor, type StatusObject } from '@grpc/grpc-js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { untilQueued } from '../support/queue-wait.js';
import { openRawGrpcCall, within } from '../support/raw-grpc-call.js';
import { addStoreModel } from '../support/store-models.js';
import { float32Bytes, grpcClient } from '../support/grpc-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import type { ConfigLayer } from '../../src/config/index.js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';

/** Far longer than a drain on loopback takes; a stop still running after it waits on a client. */
const STOP_MS = 5000;

interface StreamAnswer {
  readonly error_message: string;
  readonly infer_response: { readonly id: string };
}

/** A ModelStreamInfer stream left open (never half-closed), recording its answers and its status. */
function openStream(client: Client): { stream: ClientDuplexStream<unknown, StreamAnswer>; answers: StreamAnswer[]; status: Promise<StatusObject> } {
  const method = (client as unknown as Record<string, () => ClientDuplexStream<unknown, StreamAnswer>>)['ModelStreamInfer'];
  if (method === undefined) throw new Error('no ModelStreamInfer');
  const stream = method.call(client);
  const answers: StreamAnswer[] = [];
  stream.on('data', (answer: StreamAnswer) => answers.push(answer));
  stream.on('error', () => undefined); // the status says it
  const ended = new Promise<StatusObject>((resolve) => stream.on('status', resolve));
  return { stream, answers, status: ended };
}

function request(id: string): Record<string, unknown> {
  return { id, model_name: 'slow', inputs: [{ name: 'input', datatype: 'FP32', shape: [1] }], raw_input_contents: [float32Bytes([1])] };
}

describe('gRPC streams on shutdown', () => {
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));
  let t: TestServer;
  let client: Client;

  const start = async (config: ConfigLayer = {}): Promise<void> => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      config,
      prepare: async (store) => {
        await addStoreModel(store, 'slow', (dir) => writeIdentityModel(dir, 'FP32', [-1]), { name: 'slow', version: '1', batching: { maxBatchSize: 1 } });
      },
    });
    client = grpcClient('oip', t.grpcInference);
  };
  afterEach(async () => {
    runtime.release();
    t.server.grpc?.inference.closeAllCalls(); // a stop that waited on a client is cut short, so the next test starts clean
    client.close();
    await t.close();
  });

  it('stops while a client keeps a ModelStreamInfer stream open, ending the stream OK after its answers', async () => {
    await start();
    const open = openStream(client);
    open.stream.write(request('1'));
    while (open.answers.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await within(t.server.stop(), STOP_MS)).toEqual({ drained: true });
    expect((await open.status).code).toBe(status.OK);
    expect(open.answers.map((a) => [a.infer_response.id, a.error_message])).toEqual([['1', '']]);
  });

  it('answers a streamed request still queued when the stop begins, then ends the stream OK', async () => {
    await start();
    runtime.hold();
    const open = openStream(client);
    open.stream.write(request('running'));
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    open.stream.write(request('queued'));
    await untilQueued(t, 'slow', 1);
    const stopping = t.server.stop();
    runtime.release();
    expect(await within(stopping, STOP_MS)).toEqual({ drained: true });
    expect((await open.status).code).toBe(status.OK);
    expect(open.answers.map((a) => [a.infer_response.id, a.error_message]).sort()).toEqual([
      ['queued', ''],
      ['running', ''],
    ]);
  });

  it('stops within shutdownTimeoutMs when a client never reads the answer it asked for', async () => {
    await start({ shutdownTimeoutMs: 200 });
    // A window of 0 bytes: the client takes no response data, so the answer can never be sent whole.
    const session = connect(`http://${t.grpcInference}`, { settings: { initialWindowSize: 0 } });
    session.on('error', () => undefined);
    const { service } = client.constructor as ServiceClientConstructor;
    const message = service['ModelInfer']?.requestSerialize(request('unread')) ?? Buffer.alloc(0);
    const before = runtime.runsStarted;
    const call = openRawGrpcCall(session, '/inference.GRPCInferenceService/ModelInfer', frameMessage(message));
    call.stream.end();
    await runtime.untilRunsStarted(before + 1);
    expect(await within(t.server.stop(), STOP_MS)).toEqual({ drained: true });
    expect((await call.answer).status).toBeUndefined(); // cut off: it never read the answer
    session.destroy();
  });
});
