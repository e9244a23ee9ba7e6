import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { traceparent } from '../support/telemetry/span-recorder.js';
import { SpanRecorder } from '../support/telemetry/span-recorder.js';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { failingHandler } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

const TRACE_ID = '8a3c60f7d188f8fa79d48a391a778fa6';
const SECRET = 'do-not-log-this-body';

type Line = Record<string, unknown>;

describe('request logs', () => {
  const recorder = new SpanRecorder();
  const raw: string[] = [];
  let t: TestServer;
  const lines = (): Line[] => raw.map((l) => JSON.parse(l) as Line);

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      logger: memoryLogger(raw),
      telemetry: recorder.telemetry,
      nodeHandlers: [failingHandler('the test node always fails')],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'broken.yaml', 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: broken }\nnodes:\n  broken: { handler: test/always-fails }\noutputs: { text: broken.text }\n');
      },
    });
  });
  afterAll(async () => {
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
    expect(raw.some((l) => l.includes('5.1'))).toBe(false);
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
});
