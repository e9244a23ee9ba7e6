import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { traceparent } from '../support/telemetry/span-recorder.js';
import { SpanRecorder } from '../support/telemetry/span-recorder.js';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { status, type Client } from '@grpc/grpc-js';
import { callError, grpcClient, metadataOf, unary } from '../support/grpc-clients.js';
import { failingHandler, loggingHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const TRACE_ID = '8a3c60f7d188f8fa79d48a391a778fa6';
const HANDLER_TRACE_ID = '3e0c63257de34c926f9efcd03919c3d4';
const GRPC_TRACE_ID = '71f8bbcd2c5a4b1f9e3f0b2d4c6a8e10';
const SECRET = 'do-not-log-this-body';

type Line = Record<string, unknown>;

describe('request logs', () => {
  const recorder = new SpanRecorder();
  const raw: string[] = [];
  let t: TestServer;
  let inference: Client;
  const lines = (): Line[] => raw.map((l) => JSON.parse(l) as Line);

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      logger: memoryLogger(raw),
      telemetry: recorder.telemetry,
      nodeHandlers: [failingHandler('the test node always fails'), loggingHandler()],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'broken.yaml', 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: broken }\nnodes:\n  broken: { handler: test/always-fails }\noutputs: { text: broken.text }\n');
        // The same failing node behind a declared input, for OIP calls (which carry at least one tensor).
        await writeWorkflowFile(dir, 'broken-input.yaml', 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: broken-input }\ninputs:\n  x: { datatype: FP32, shape: [-1] }\nnodes:\n  broken: { handler: test/always-fails }\noutputs: { text: broken.text }\n');
        await writeWorkflowFile(dir, 'noting.yaml', 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: noting }\nnodes:\n  note: { handler: test/logs, inputs: { tag: { value: seen } } }\noutputs: { tag: note.tag }\n');
      },
    });
    inference = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    inference.close();
    await t.close();
    await recorder.telemetry.shutdown();
  });

  it('writes one access-log line per request with method, route, status, latency, model and request id, without the body', async () => {
    await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2], headers: { 'x-request-id': 'access-1', 'x-note': SECRET } });
    await recorder.until((s) => s.some((span) => span.attributes['sluice.request_id'] === 'access-1'));
    const access = lines().filter((l) => l['msg'] === 'request' && l['requestId'] === 'access-1');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', method: 'POST', route: '/predictions/:model', status: 200, model: 'iris', requestId: 'access-1' });
    expect(typeof access[0]!['latencyMs']).toBe('number');
    expect(access[0]).not.toHaveProperty('body');
    // The body as sent, commas included: a timestamp or a latency can hold `5.1`, never this.
    expect(raw.some((l) => l.includes('5.1,3.5,1.4,0.2'))).toBe(false);
  });

  it('writes a line, with its error code and request id, for a request whose path the router refuses', async () => {
    const answer = await requestJson(`${t.inference}/predictions/${'x'.repeat(1100)}`, { method: 'POST', json: [1], headers: { 'x-request-id': 'access-refused' } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-request-id')).toBe('access-refused');
    const access = lines().filter((l) => l['msg'] === 'request' && l['requestId'] === 'access-refused');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ method: 'POST', route: null, status: 400, errorCode: 'SLUICE_REQUEST_INVALID' });
  });

  it('puts the request’s trace id on every line it logs', async () => {
    await requestJson(`${t.inference}/wfpredict/broken`, { method: 'POST', json: {}, headers: { 'x-request-id': 'access-2', traceparent: traceparent(TRACE_ID, '53995c3f42cd8ad8') } });
    await recorder.until((s) => s.some((span) => span.attributes['sluice.request_id'] === 'access-2'));
    const traced = lines().filter((l) => l['trace_id'] === TRACE_ID);
    // The node failure warning or error, the failed request and the access line: all of this request's lines.
    expect(traced.map((l) => l['msg'])).toEqual(expect.arrayContaining(['request failed', 'request']));
    const ofRequest = lines().filter((l) => l['requestId'] === 'access-2' || (typeof l['url'] === 'string' && l['url'].startsWith('/wfpredict/broken')));
    expect(ofRequest.length).toBeGreaterThanOrEqual(2);
    for (const line of ofRequest) expect(line['trace_id']).toBe(TRACE_ID);
  });

  it('puts the request’s trace id on the lines a handler logs through its context', async () => {
    await requestJson(`${t.inference}/wfpredict/noting`, { method: 'POST', json: {}, headers: { 'x-request-id': 'access-3', traceparent: traceparent(HANDLER_TRACE_ID, '5a1d2c3b4e5f6071') } });
    await recorder.until((s) => s.some((span) => span.attributes['sluice.request_id'] === 'access-3'));
    const noted = lines().filter((l) => l['msg'] === 'noted');
    expect(noted).toHaveLength(1);
    expect(noted[0]).toMatchObject({ tag: 'seen', trace_id: HANDLER_TRACE_ID, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('puts the call’s trace id on the line of a gRPC call that failed inside the server', async () => {
    const metadata = metadataOf({ traceparent: traceparent(GRPC_TRACE_ID, '6b2e3d4c5f607182') });
    const call = unary(inference, 'ModelInfer', { model_name: 'broken-input', inputs: [{ name: 'x', datatype: 'FP32', shape: [1], contents: { fp32_contents: [1] } }] }, {}, metadata);
    expect(await callError(call)).toMatchObject({ code: status.INTERNAL, errorCode: 'SLUICE_WORKFLOW_NODE_FAILED' });
    const name = 'inference.GRPCInferenceService/ModelInfer';
    await recorder.until((s) => s.some((span) => span.name === name && span.spanContext().traceId === GRPC_TRACE_ID));
    const failed = lines().filter((l) => l['msg'] === 'call failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'error', method: '/inference.GRPCInferenceService/ModelInfer', code: 'SLUICE_WORKFLOW_NODE_FAILED', trace_id: GRPC_TRACE_ID });
  });
});
