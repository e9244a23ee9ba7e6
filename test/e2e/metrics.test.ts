import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

function sample(page: string, series: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics API', () => {
  let t: TestServer;
  let page = '';
  let contentType = '';
  beforeAll(async () => {
    t = await startTestServer();
    for (let i = 0; i < 3; i++) await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [[1, 2, 3]] }); // shape error: not counted as an inference
    const res = await fetch(`${t.metrics}/metrics`);
    contentType = res.headers.get('content-type') ?? '';
    page = await res.text();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers in the Prometheus text format', () => {
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(page).toContain('# TYPE ts_inference_requests_total counter');
  });

  it('counts inference requests per model and version with TorchServe names', () => {
    expect(sample(page, 'ts_inference_requests_total{model_name="iris",model_version="1.0"}')).toBe(3);
    expect(sample(page, 'ts_inference_requests_total{model_name="mlp",model_version="1.0"}')).toBeUndefined();
  });

  it('accumulates inference and queue latency in microseconds', () => {
    expect(sample(page, 'ts_inference_latency_microseconds{model_name="iris",model_version="1.0"}')).toBeGreaterThan(0);
    expect(sample(page, 'ts_queue_latency_microseconds{model_name="iris",model_version="1.0"}')).toBeGreaterThanOrEqual(0);
  });

  it('keeps a request-latency histogram per model', () => {
    expect(sample(page, 'sluice_inference_request_duration_seconds_count{model_name="iris",model_version="1.0"}')).toBe(3);
    expect(sample(page, 'sluice_inference_request_duration_seconds_bucket{model_name="iris",model_version="1.0",le="+Inf"}')).toBe(3);
  });
});
