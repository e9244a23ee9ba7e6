import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client } from '@grpc/grpc-js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { callError, float32Bytes, grpcClient, metadataOf, startInfer, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { silentHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A workflow whose one node never answers: only a deadline ends its runs (its own after 5 s). */
const WAITING_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: waits }
responseTimeoutMs: 5000
inputs: { note: { type: string } }
nodes:
  mute: { handler: test/never-answers, timeoutMs: 3600000 }
outputs: { text: mute.text }
`;

/** An hour, in the microseconds of OIP's `parameters.timeout`. */
const HOUR_US = 3_600_000_000;
/** 50 ms, in microseconds. */
const FIFTY_MS_US = 50_000;

/** How a refusal reads on either transport: its Sluice code and message, and the transport's status. */
interface Refusal {
  readonly status: number | string;
  readonly errorCode: string | undefined;
  readonly message: string;
}

/**
 * A request's own timeout may come from two places, the `x-sluice-timeout-ms` header (gRPC metadata) and
 * the OIP `parameters.timeout`; REST and gRPC take the smaller, for models and workflows alike.
 */
describe('own timeouts from a header and from OIP parameters, merged alike by REST and gRPC', () => {
  let t: TestServer;
  let oip: Client;
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));

  /** `POST /v2/models/{model}/infer` with `x-sluice-timeout-ms: headerMs` and `parameters.timeout: parameterUs`. */
  const rest = async (model: string, input: Record<string, unknown>, headerMs: number, parameterUs: number): Promise<Refusal> => {
    const answer = await requestJson(`${t.inference}/v2/models/${model}/infer`, {
      method: 'POST',
      headers: { 'x-sluice-timeout-ms': String(headerMs) },
      json: { parameters: { timeout: parameterUs }, inputs: [input] },
    });
    const body = answer.body as { error: string; errorCode: string };
    return { status: answer.status, errorCode: body.errorCode, message: body.error };
  };
  /** `ModelInfer` with `x-sluice-timeout-ms: metadataMs` metadata and `parameters.timeout: parameterUs`. */
  const grpc = async (request: Record<string, unknown>, metadataMs: number, parameterUs: number): Promise<Refusal> => {
    const withTimeout = { ...request, parameters: { timeout: { int64_param: String(parameterUs) } } };
    const error = await callError(unary(oip, 'ModelInfer', withTimeout, {}, metadataOf({ 'x-sluice-timeout-ms': String(metadataMs) })));
    return { status: status[error.code] ?? error.code, errorCode: error.errorCode, message: error.details };
  };
  const NOTE_JSON = { name: 'note', datatype: 'BYTES', shape: [1], data: ['hello'] };
  const NOTE_GRPC = { model_name: 'waits', inputs: [{ name: 'note', datatype: 'BYTES', shape: [1], contents: { bytes_contents: [Buffer.from('hello')] } }] };
  const SLOW_JSON = { name: 'input', datatype: 'FP32', shape: [1], data: [1] };
  const SLOW_GRPC = { model_name: 'slow', inputs: [{ name: 'input', datatype: 'FP32', shape: [1] }], raw_input_contents: [float32Bytes([1])] };

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      nodeHandlers: [silentHandler()],
      prepare: async (store, dir) => {
        await addStoreModel(store, 'slow', (model) => writeIdentityModel(model, 'FP32', [-1]), {
          name: 'slow',
          version: '1',
          batching: { maxBatchSize: 1, queuePolicy: 'reject' },
          workers: { min: 1, max: 1 },
        });
        await writeWorkflowFile(dir, 'waits.yaml', WAITING_WORKFLOW);
      },
    });
    oip = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    runtime.release();
    oip.close();
    await t.close();
  });

  it('ends a workflow run at the header’s timeout when parameters.timeout is longer, on both transports', async () => {
    const message = 'workflow `waits` did not finish within 50 ms; still running: mute';
    expect({ rest: await rest('waits', NOTE_JSON, 50, HOUR_US), grpc: await grpc(NOTE_GRPC, 50, HOUR_US) }).toEqual({
      rest: { status: 504, errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', message },
      grpc: { status: 'DEADLINE_EXCEEDED', errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', message },
    });
  });

  it('ends a workflow run at parameters.timeout when the header’s is longer, on both transports', async () => {
    const message = 'workflow `waits` did not finish within 50 ms; still running: mute';
    expect({ rest: await rest('waits', NOTE_JSON, 3_600_000, FIFTY_MS_US), grpc: await grpc(NOTE_GRPC, 3_600_000, FIFTY_MS_US) }).toEqual({
      rest: { status: 504, errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', message },
      grpc: { status: 'DEADLINE_EXCEEDED', errorCode: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', message },
    });
  });

  it('refuses a queued model request at the header’s timeout when parameters.timeout is longer, on both transports', async () => {
    runtime.hold();
    const running = startInfer(oip, SLOW_GRPC);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const [viaRest, viaGrpc] = await Promise.all([rest('slow', SLOW_JSON, 30, HOUR_US), grpc(SLOW_GRPC, 30, HOUR_US)]);
    runtime.release();
    await running.answer;
    expect({ rest: [viaRest.status, viaRest.errorCode], grpc: [viaGrpc.status, viaGrpc.errorCode] }).toEqual({
      rest: [504, 'SLUICE_RESPONSE_TIMEOUT'],
      grpc: ['DEADLINE_EXCEEDED', 'SLUICE_RESPONSE_TIMEOUT'],
    });
  });
});
