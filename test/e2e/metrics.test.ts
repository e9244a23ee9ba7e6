import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parsePrometheusText } from '../support/prometheus-text.js';
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

  it('serves a page that reads as strict Prometheus text, its histograms cumulative', () => {
    const families = parsePrometheusText(page);
    expect(families.get('sluice_queue_duration_seconds')?.type).toBe('histogram');
    expect(families.get('sluice_batch_size')?.type).toBe('histogram');
  });

  it('serves only the metrics name[] asks for, as TorchServe does, each once', async () => {
    const names = ['ts_inference_requests_total', 'ts_queue_latency_microseconds', 'ts_queue_latency_microseconds', 'no_such_metric'];
    const res = await fetch(`${t.metrics}/metrics?${names.map((n) => `name[]=${n}`).join('&')}`);
    expect(res.status).toBe(200);
    const families = parsePrometheusText(await res.text());
    expect([...families.keys()]).toEqual(['ts_inference_requests_total', 'ts_queue_latency_microseconds']);
    expect(families.get('ts_inference_requests_total')?.samples).toEqual([{ name: 'ts_inference_requests_total', labels: { model_name: 'iris', model_version: '1.0' }, value: 3 }]);
  });

  it('answers an empty page when name[] names no metric it has', async () => {
    const res = await fetch(`${t.metrics}/metrics?name[]=no_such_metric`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('shows the utilisation of the instances a version has now, not of those scaled away', async () => {
    const instances = async (): Promise<string[]> => {
      const text = await (await fetch(`${t.metrics}/metrics?name[]=sluice_instance_utilization_ratio`)).text();
      return (parsePrometheusText(text).get('sluice_instance_utilization_ratio')?.samples ?? []).filter((s) => s.labels['model_name'] === 'iris').map((s) => s.labels['instance'] ?? '');
    };
    expect((await requestJson(`${t.management}/models/iris?min_worker=3&max_worker=3&synchronous=true`, { method: 'PUT' })).status).toBe(200);
    expect(await instances()).toHaveLength(3);
    expect((await requestJson(`${t.management}/models/iris?min_worker=1&max_worker=1&synchronous=true`, { method: 'PUT' })).status).toBe(200);
    expect(await instances()).toEqual(['iris-1.0-1']);
  });

  it('drops the series of unregistered versions: versions that come and go leave the page as it was', async () => {
    const before = await (await fetch(`${t.metrics}/metrics`)).text();
    for (let i = 0; i < 10; i++) {
      expect((await requestJson(`${t.management}/models?url=iris&model_name=churn-${i}&initial_workers=1`, { method: 'POST' })).status).toBe(200);
      expect((await requestJson(`${t.inference}/predictions/churn-${i}`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).status).toBe(200);
      expect(await (await fetch(`${t.metrics}/metrics`)).text()).toContain(`ts_inference_requests_total{model_name="churn-${i}",model_version="1.0"} 1`);
      expect((await requestJson(`${t.management}/models/churn-${i}`, { method: 'DELETE' })).status).toBe(200);
    }
    const after = await (await fetch(`${t.metrics}/metrics`)).text();
    parsePrometheusText(after);
    expect(after.split('\n').filter((l) => l.includes('churn-'))).toEqual([]);
    expect(after.split('\n').filter((l) => l.includes('model_name="iris"') && l.startsWith('ts_'))).toEqual(before.split('\n').filter((l) => l.includes('model_name="iris"') && l.startsWith('ts_')));
  });
});
