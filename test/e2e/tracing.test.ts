import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { GatedRuntime } from '../support/gated-runtime.js';
import { childrenOf, only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const SETOSA = [5.1, 3.5, 1.4, 0.2];

function serverSpans(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.kind === SpanKind.SERVER && s.name === name);
}

describe('traces of inference requests', () => {
  const recorder = new SpanRecorder();
  const runtime = new GatedRuntime((path) => path.includes('/mlp/'));
  let t: TestServer;
  const mlp = (row: number[], headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/v2/models/mlp/infer`, {
      method: 'POST',
      headers,
      json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: row }] },
    });

  beforeAll(async () => {
    t = await startTestServer({ telemetry: recorder.telemetry, runtime });
    // One instance and no autoscaling, so that a held run keeps every later request queued.
    await requestJson(`${t.management}/models/mlp?min_worker=1&max_worker=1&synchronous=true`, { method: 'PUT' });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
    await recorder.telemetry.shutdown();
  });
  beforeEach(() => {
    recorder.reset();
  });

  it('continues the caller’s trace with a server span holding preprocess, queue.wait and postprocess', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, {
      method: 'POST',
      json: SETOSA,
      headers: { traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID), 'x-request-id': 'req-42' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe('req-42');
    const spans = await recorder.until((s) => serverSpans(s, 'POST /predictions/:model').length === 1);
    const server = only(spans, 'POST /predictions/:model');
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/predictions/:model',
      'http.response.status_code': 200,
      'sluice.request_id': 'req-42',
      'sluice.model': 'iris',
    });
    expect(childrenOf(spans, server).map((s) => s.name).sort()).toEqual(['postprocess', 'preprocess', 'queue.wait']);
  });

  it('runs inference in a batch.execute span of its own trace, linked to the request span', async () => {
    await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA, headers: { traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) } });
    const spans = await recorder.until((s) => serverSpans(s, 'POST /predictions/:model').length === 1);
    const server = only(spans, 'POST /predictions/:model');
    const batch = only(spans, 'batch.execute');
    expect(batch.spanContext().traceId).not.toBe(TRACE_ID);
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links.map((l) => l.context.spanId)).toEqual([server.spanContext().spanId]);
    expect(batch.attributes).toMatchObject({
      'sluice.model': 'iris',
      'sluice.model.version': '1.0',
      'sluice.batch.size': 1,
      'sluice.device': 'cpu',
      'sluice.execution_provider': 'cpu',
    });
    expect(typeof batch.attributes['sluice.instance']).toBe('string');
  });

  it('generates an x-request-id when the client sends none', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('links one batch.execute span to every request of a burst that batched', async () => {
    runtime.hold();
    const started = runtime.runsStarted;
    const first = mlp(Array.from({ length: 64 }, () => 0));
    await runtime.untilRunsStarted(started + 1);
    // The only instance is held: these four queue and then run as one batch.
    const burst = [1, 2, 3, 4].map((i) => mlp(Array.from({ length: 64 }, () => i)));
    while ((((await requestJson(`${t.management}/models/mlp`)).body as [{ jobQueueStatus?: { pendingRequests?: number } }])[0].jobQueueStatus?.pendingRequests ?? 0) < 4) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    runtime.release();
    expect((await Promise.all([first, ...burst])).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const spans = await recorder.until((s) => serverSpans(s, 'POST /v2/models/:model/infer').length === 5);
    const batches = spans.filter((s) => s.name === 'batch.execute' && s.attributes['sluice.model'] === 'mlp');
    expect(batches.map((b) => b.attributes['sluice.batch.size']).sort()).toEqual([1, 4]);
    const big = batches.find((b) => b.attributes['sluice.batch.size'] === 4)!;
    const burstServers = serverSpans(spans, 'POST /v2/models/:model/infer').filter((s) => !batches.some((b) => b !== big && b.links[0]?.context.spanId === s.spanContext().spanId));
    expect(big.links.map((l) => l.context.spanId).sort()).toEqual(burstServers.map((s) => s.spanContext().spanId).sort());
    for (const server of burstServers) expect(childrenOf(spans, server).map((s) => s.name)).toEqual(['queue.wait']);
  });

  it('marks a request that failed in inference ERROR, with the exception on its server and batch spans', async () => {
    runtime.failNextRuns(2);
    const answer = await mlp(Array.from({ length: 64 }, () => 9), { traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    const spans = await recorder.until((s) => serverSpans(s, 'POST /v2/models/:model/infer').length === 1);
    const server = only(spans, 'POST /v2/models/:model/infer');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['sluice.error.code']).toBe('SLUICE_INSTANCE_FAILED');
    expect(server.events.map((e) => e.name)).toContain('exception');
    const batches = spans.filter((s) => s.name === 'batch.execute');
    expect(batches).toHaveLength(2);
    for (const batch of batches) {
      expect(batch.status.code).toBe(SpanStatusCode.ERROR);
      expect(batch.links.map((l) => l.context.spanId)).toEqual([server.spanContext().spanId]);
    }
  });
});
