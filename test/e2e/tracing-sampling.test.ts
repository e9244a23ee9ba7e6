import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN_ID = 'b7ad6b7169203331';

/** A server that traces only what its callers sample (`parentbased_always_off`): batches follow their requests. */
describe('traces of sampled requests under a sampler that starts no trace itself', () => {
  const recorder = new SpanRecorder({ sampler: 'parentbased_always_off' });
  let t: TestServer;
  const predict = (headers: Record<string, string>): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2], headers });

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], telemetry: recorder.telemetry });
  });
  afterAll(async () => {
    await t.close();
    await recorder.telemetry.shutdown();
  });
  beforeEach(() => {
    recorder.reset();
  });

  it('records the batch of a sampled request, linked to its request span', async () => {
    expect((await predict({ traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) })).status).toBe(200);
    const spans = await recorder.until((s) => s.some((span) => span.kind === SpanKind.SERVER));
    const server = only(spans, 'POST /predictions/:model');
    const batch = only(spans, 'batch.execute');
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links.map((l) => l.context.spanId)).toEqual([server.spanContext().spanId]);
  });

  it('records nothing for a request its caller did not sample', async () => {
    expect((await predict({ 'x-request-id': 'unsampled' })).status).toBe(200);
    // The request's answer is sent before its spans would end; a sampled request made after it shows the spans have caught up.
    await predict({ traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) });
    const spans = await recorder.until((s) => s.some((span) => span.kind === SpanKind.SERVER));
    expect(spans.filter((s) => s.spanContext().traceId !== TRACE_ID && s.name !== 'batch.execute')).toEqual([]);
    expect(spans.filter((s) => s.name === 'batch.execute')).toHaveLength(1);
  });
});
