import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OtlpReceiver } from '../support/telemetry/otlp-receiver.js';
import { traceparent } from '../support/telemetry/span-recorder.js';
import { requestJson, startTestServer } from '../support/test-server.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';

describe('spans on the wire', () => {
  const receiver = new OtlpReceiver();
  let status = 0;

  beforeAll(async () => {
    const endpoint = await receiver.start();
    const t = await startTestServer({
      demoModels: ['iris'],
      config: { telemetry: { tracesExporter: 'otlp', otlpEndpoint: endpoint, serviceName: 'sluice-wire-test' } },
    });
    status = (await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2], headers: { traceparent: traceparent(TRACE_ID, 'eee19b7ec3c1b174') } })).status;
    // Stopping the server shuts its telemetry down, which sends what is buffered.
    await t.close();
  });
  afterAll(() => receiver.close());

  it('sends OTLP/HTTP JSON to the configured endpoint', () => {
    expect(status).toBe(200);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => r.contentType.startsWith('application/json'))).toBe(true);
  });

  it('carries the request’s span tree and the service name', () => {
    const spans = receiver.spans.filter((s) => s.traceId === TRACE_ID);
    const server = spans.find((s) => s.name === 'POST /predictions/:model');
    expect(server).toMatchObject({ parentSpanId: 'eee19b7ec3c1b174', service: 'sluice-wire-test' });
    expect(spans.filter((s) => s.parentSpanId === server?.spanId).map((s) => s.name).sort()).toEqual(['postprocess', 'preprocess', 'queue.wait']);
  });

  it('carries the batch span with its link to the request span', () => {
    const server = receiver.spans.find((s) => s.traceId === TRACE_ID && s.name === 'POST /predictions/:model');
    const batch = receiver.spans.find((s) => s.name === 'batch.execute');
    expect(batch?.links?.map((l) => [l.traceId, l.spanId])).toEqual([[TRACE_ID, server?.spanId]]);
  });
});
