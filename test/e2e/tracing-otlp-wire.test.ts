import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_CONFIG } from '../../src/config/sluice-config.js';
import { resolveTelemetrySettings } from '../../src/telemetry/tracing/telemetry-settings.js';
import { Telemetry } from '../../src/telemetry/tracing/telemetry.js';
import { attributesOf, OtlpReceiver } from '../support/telemetry/otlp-receiver.js';
import { traceparent } from '../support/telemetry/span-recorder.js';
import { requestJson, startTestServer } from '../support/test-server.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';

/** Serves one traced prediction with the exporter `env` configures, then stops, which sends what is buffered. */
async function exportOnePrediction(receiver: OtlpReceiver, env: Record<string, string>): Promise<number> {
  const endpoint = await receiver.start();
  const telemetry = new Telemetry(
    resolveTelemetrySettings(DEFAULT_CONFIG.telemetry, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'sluice-wire-test', ...env }),
  );
  const t = await startTestServer({ demoModels: ['iris'], telemetry });
  const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2], headers: { traceparent: traceparent(TRACE_ID, 'eee19b7ec3c1b174') } });
  await t.close();
  await telemetry.shutdown();
  return answer.status;
}

function expectSpanTree(receiver: OtlpReceiver): void {
  const spans = receiver.spans.filter((s) => s.traceId === TRACE_ID);
  const server = spans.find((s) => s.name === 'POST /predictions/:model');
  expect(server).toMatchObject({ parentSpanId: 'eee19b7ec3c1b174', service: 'sluice-wire-test' });
  expect(spans.filter((s) => s.parentSpanId === server?.spanId).map((s) => s.name).sort()).toEqual(['postprocess', 'preprocess', 'queue.wait']);
  const batch = receiver.spans.find((s) => s.name === 'batch.execute');
  expect(batch?.links?.map((l) => [l.traceId, l.spanId])).toEqual([[TRACE_ID, server?.spanId]]);
}

/** OTLP's span kinds and status codes, as the wire carries them. */
const KIND_INTERNAL = 1;
const KIND_SERVER = 2;
const STATUS_UNSET = 0;

function expectSpanFields(receiver: OtlpReceiver): void {
  const server = receiver.spans.find((s) => s.name === 'POST /predictions/:model');
  expect(server).toMatchObject({ kind: KIND_SERVER });
  expect(server?.status?.code ?? STATUS_UNSET).toBe(STATUS_UNSET);
  expect(attributesOf(server)).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/predictions/:model', 'http.response.status_code': 200, 'sluice.model': 'iris' });
  const batch = receiver.spans.find((s) => s.name === 'batch.execute');
  expect(batch).toMatchObject({ kind: KIND_INTERNAL });
  expect(attributesOf(batch)).toMatchObject({ 'sluice.model': 'iris', 'sluice.batch.size': 1 });
}

describe('spans on the wire, OTLP/HTTP protobuf (the default)', () => {
  const receiver = new OtlpReceiver();
  let status = 0;

  beforeAll(async () => {
    status = await exportOnePrediction(receiver, {});
  });
  afterAll(() => receiver.close());

  it('sends protobuf to the configured endpoint', () => {
    expect(status).toBe(200);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => r.contentType.startsWith('application/x-protobuf'))).toBe(true);
  });

  it('carries the request’s span tree, the service name and the batch span’s link', () => {
    expectSpanTree(receiver);
  });

  it('carries the spans’ kinds, statuses and attributes of each type', () => {
    expectSpanFields(receiver);
  });
});

describe('spans on the wire, OTLP/HTTP JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)', () => {
  const receiver = new OtlpReceiver();
  let status = 0;

  beforeAll(async () => {
    status = await exportOnePrediction(receiver, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  });
  afterAll(() => receiver.close());

  it('sends JSON to the configured endpoint', () => {
    expect(status).toBe(200);
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((r) => r.contentType.startsWith('application/json'))).toBe(true);
  });

  it('carries the request’s span tree, the service name and the batch span’s link', () => {
    expectSpanTree(receiver);
  });

  it('carries the spans’ kinds, statuses and attributes of each type', () => {
    expectSpanFields(receiver);
  });
});
