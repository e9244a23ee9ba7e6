import { describe, expect, it } from '@jest/globals';
import { PrometheusServingMetrics } from '../../../../src/telemetry/metrics/prometheus-serving-metrics.js';
import type { InstanceUtilization, VersionLoad } from '../../../../src/telemetry/metrics/serving-metrics.js';
import { parsePrometheusText } from '../../../support/prometheus-text.js';

const BOUNDS = ['0.0001', '0.00025', '0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '30', '60'];

/** Metrics with the model versions `versions` (`model@version`) registered. */
function metricsWith(...versions: string[]): PrometheusServingMetrics {
  const metrics = new PrometheusServingMetrics();
  for (const v of versions) {
    const [model = '', version = ''] = v.split('@');
    metrics.versionAdded(model, version);
  }
  return metrics;
}

function lines(body: string, prefix: string): string[] {
  return body.split('\n').filter((line) => line.startsWith(prefix));
}

describe('PrometheusServingMetrics', () => {
  it('answers the Prometheus text content type', async () => {
    expect((await new PrometheusServingMetrics().scrape()).contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('declares each metric with its type once it has a value', async () => {
    const metrics = metricsWith('iris@1');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: false, latencyUs: 10, queueUs: 1 });
    metrics.batchCompleted({ model: 'iris', version: '1', size: 1, computeUs: 5 });
    metrics.workflowNodeCompleted({ workflow: 'w', node: 'n', status: 'ok', latencyUs: 7 });
    metrics.errorAnswered('SLUICE_MODEL_NOT_FOUND', 'http');
    metrics.watchUtilization(() => [{ model: 'iris', version: '1', instance: 'iris-1-1', utilization: 0 }]);
    expect(lines((await metrics.scrape()).body, '# TYPE')).toEqual([
      '# TYPE sluice_errors_total counter',
      '# TYPE ts_inference_requests_total counter',
      '# TYPE ts_inference_latency_microseconds counter',
      '# TYPE ts_queue_latency_microseconds counter',
      '# TYPE sluice_inference_failures_total counter',
      '# TYPE sluice_instance_utilization_ratio gauge',
      '# TYPE sluice_inference_request_duration_seconds histogram',
      '# TYPE sluice_queue_duration_seconds histogram',
      '# TYPE sluice_batch_size histogram',
      '# TYPE sluice_inference_compute_duration_seconds histogram',
      '# TYPE sluice_workflow_node_duration_seconds histogram',
    ]);
  });

  it('counts requests and adds up rounded latencies per model version', async () => {
    const metrics = metricsWith('iris@1', 'iris@2');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 1500.4, queueUs: 200.6 });
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 500, queueUs: 0 });
    metrics.inferenceCompleted({ model: 'iris', version: '2', ok: true, latencyUs: 10, queueUs: 1 });
    const body = (await metrics.scrape()).body;
    expect(lines(body, 'ts_')).toEqual([
      'ts_inference_requests_total{model_name="iris",model_version="1"} 2',
      'ts_inference_requests_total{model_name="iris",model_version="2"} 1',
      'ts_inference_latency_microseconds{model_name="iris",model_version="1"} 2000',
      'ts_inference_latency_microseconds{model_name="iris",model_version="2"} 10',
      'ts_queue_latency_microseconds{model_name="iris",model_version="1"} 201',
      'ts_queue_latency_microseconds{model_name="iris",model_version="2"} 1',
    ]);
  });

  it('counts failures only for requests that failed', async () => {
    const metrics = metricsWith('iris@1', 'mnist@1');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 1, queueUs: 0 });
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: false, latencyUs: 1, queueUs: 0 });
    metrics.inferenceCompleted({ model: 'mnist', version: '1', ok: true, latencyUs: 1, queueUs: 0 });
    expect(lines((await metrics.scrape()).body, 'sluice_inference_failures_total')).toEqual([
      'sluice_inference_failures_total{model_name="iris",model_version="1"} 1',
    ]);
  });

  it('records latency in seconds in cumulative buckets', async () => {
    const metrics = metricsWith('iris@1');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 3000, queueUs: 0 });
    const body = (await metrics.scrape()).body;
    const counts = BOUNDS.map((bound) => Number(/ (\d+)$/.exec(lines(body, `sluice_inference_request_duration_seconds_bucket{model_name="iris",model_version="1",le="${bound}"}`)[0]!)![1]));
    expect(counts).toEqual(BOUNDS.map((bound) => (Number(bound) >= 0.003 ? 1 : 0)));
    expect(lines(body, 'sluice_inference_request_duration_seconds_')).toEqual(
      expect.arrayContaining([
        'sluice_inference_request_duration_seconds_bucket{model_name="iris",model_version="1",le="+Inf"} 1',
        'sluice_inference_request_duration_seconds_sum{model_name="iris",model_version="1"} 0.003',
        'sluice_inference_request_duration_seconds_count{model_name="iris",model_version="1"} 1',
      ]),
    );
  });

  it('records queue time in seconds', async () => {
    const metrics = metricsWith('iris@1');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 3000, queueUs: 250 });
    const body = (await metrics.scrape()).body;
    expect(lines(body, 'sluice_queue_duration_seconds_bucket{model_name="iris",model_version="1",le="0.00025"}')).toEqual([
      'sluice_queue_duration_seconds_bucket{model_name="iris",model_version="1",le="0.00025"} 1',
    ]);
    expect(lines(body, 'sluice_queue_duration_seconds_bucket{model_name="iris",model_version="1",le="0.0001"}')).toEqual([
      'sluice_queue_duration_seconds_bucket{model_name="iris",model_version="1",le="0.0001"} 0',
    ]);
    expect(lines(body, 'sluice_queue_duration_seconds_sum')).toEqual(['sluice_queue_duration_seconds_sum{model_name="iris",model_version="1"} 0.00025']);
  });

  it('leaves a request that never ran out of the queue-time series, and counts it in the request and latency series', async () => {
    const metrics = metricsWith('iris@1');
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: true, latencyUs: 3000, queueUs: 250 });
    metrics.inferenceCompleted({ model: 'iris', version: '1', ok: false, latencyUs: 1000 });
    const body = (await metrics.scrape()).body;
    expect(lines(body, 'sluice_queue_duration_seconds_count')).toEqual(['sluice_queue_duration_seconds_count{model_name="iris",model_version="1"} 1']);
    expect(lines(body, 'ts_queue_latency_microseconds{')).toEqual(['ts_queue_latency_microseconds{model_name="iris",model_version="1"} 250']);
    expect(lines(body, 'sluice_inference_request_duration_seconds_count')).toEqual(['sluice_inference_request_duration_seconds_count{model_name="iris",model_version="1"} 2']);
    expect(lines(body, 'ts_inference_requests_total{')).toEqual(['ts_inference_requests_total{model_name="iris",model_version="1"} 2']);
  });

  it('counts error answers by code and transport', async () => {
    const metrics = new PrometheusServingMetrics();
    metrics.errorAnswered('SLUICE_MODEL_NOT_FOUND', 'http');
    metrics.errorAnswered('SLUICE_MODEL_NOT_FOUND', 'http');
    metrics.errorAnswered('SLUICE_QUEUE_FULL', 'http');
    expect(lines((await metrics.scrape()).body, 'sluice_errors_total{')).toEqual([
      'sluice_errors_total{code="SLUICE_MODEL_NOT_FOUND",transport="http"} 2',
      'sluice_errors_total{code="SLUICE_QUEUE_FULL",transport="http"} 1',
    ]);
  });

  it('records workflow node latency per workflow, node and outcome', async () => {
    const metrics = new PrometheusServingMetrics();
    metrics.workflowNodeCompleted({ workflow: 'w', node: 'detect', status: 'ok', latencyUs: 2000 });
    metrics.workflowNodeCompleted({ workflow: 'w', node: 'detect', status: 'ok', latencyUs: 4000 });
    expect(lines((await metrics.scrape()).body, 'sluice_workflow_node_duration_seconds_sum')).toEqual([
      'sluice_workflow_node_duration_seconds_sum{workflow="w",node="detect",status="ok"} 0.006',
    ]);
  });

  it('ends the page with a newline', async () => {
    expect((await new PrometheusServingMetrics().scrape()).body.endsWith('\n')).toBe(true);
  });

  it('counts batch sizes and compute time per model', async () => {
    const metrics = metricsWith('m@1');
    metrics.batchCompleted({ model: 'm', version: '1', size: 3, computeUs: 2000 });
    metrics.batchCompleted({ model: 'm', version: '1', size: 16, computeUs: 4000 });
    const page = (await metrics.scrape()).body;
    expect(page).toContain('sluice_batch_size_bucket{model_name="m",model_version="1",le="4"} 1');
    expect(page).toContain('sluice_batch_size_bucket{model_name="m",model_version="1",le="16"} 2');
    expect(page).toContain('sluice_batch_size_sum{model_name="m",model_version="1"} 19');
    expect(page).toContain('sluice_inference_compute_duration_seconds_sum{model_name="m",model_version="1"} 0.006');
  });

  it('gives a version seen only through its batches no request counters', async () => {
    const metrics = metricsWith('m@1');
    metrics.batchCompleted({ model: 'm', version: '1', size: 2, computeUs: 10 });
    const page = (await metrics.scrape()).body;
    expect(page).toContain('sluice_batch_size_count{model_name="m",model_version="1"} 1');
    expect(lines(page, 'ts_')).toEqual([]);
  });

  it('keeps counting into histograms after a scrape (cumulative)', async () => {
    const metrics = metricsWith('m@1');
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: true, latencyUs: 100, queueUs: 0 });
    await metrics.scrape();
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: true, latencyUs: 100, queueUs: 0 });
    expect(lines((await metrics.scrape()).body, 'sluice_inference_request_duration_seconds_count')).toEqual([
      'sluice_inference_request_duration_seconds_count{model_name="m",model_version="1"} 2',
    ]);
  });

  it('reads instance utilisation from its source at scrape time', async () => {
    const metrics = new PrometheusServingMetrics();
    let value = 0.25;
    metrics.watchUtilization(() => [{ model: 'm', version: '1', instance: 'm-1-1', utilization: value }]);
    expect((await metrics.scrape()).body).toContain('sluice_instance_utilization_ratio{model_name="m",model_version="1",instance="m-1-1"} 0.25');
    value = 0.5;
    expect((await metrics.scrape()).body).toContain('sluice_instance_utilization_ratio{model_name="m",model_version="1",instance="m-1-1"} 0.5');
  });

  it('shows only the instances its source reports now: one scaled away leaves the page', async () => {
    const metrics = new PrometheusServingMetrics();
    let instances: InstanceUtilization[] = ['m-1-1', 'm-1-2'].map((instance) => ({ model: 'm', version: '1', instance, utilization: 0.5 }));
    metrics.watchUtilization(() => instances);
    await metrics.scrape();
    instances = instances.slice(0, 1);
    expect(lines((await metrics.scrape()).body, 'sluice_instance_utilization_ratio{')).toEqual([
      'sluice_instance_utilization_ratio{model_name="m",model_version="1",instance="m-1-1"} 0.5',
    ]);
    instances = [];
    expect((await metrics.scrape()).body).not.toContain('sluice_instance_utilization_ratio');
  });

  it('reads each version\'s queue length and requests in flight from its source at scrape time', async () => {
    const metrics = new PrometheusServingMetrics();
    let load: VersionLoad[] = [
      { model: 'm', version: '1', queued: 3, inFlight: 5 },
      { model: 'n', version: '2', queued: 0, inFlight: 0 },
    ];
    metrics.watchLoad(() => load);
    const page = parsePrometheusText((await metrics.scrape()).body);
    expect(page.get('sluice_queue_length')?.type).toBe('gauge');
    expect(page.get('sluice_queue_length')?.samples).toEqual([
      { name: 'sluice_queue_length', labels: { model_name: 'm', model_version: '1' }, value: 3 },
      { name: 'sluice_queue_length', labels: { model_name: 'n', model_version: '2' }, value: 0 },
    ]);
    expect(page.get('sluice_inflight_requests')?.type).toBe('gauge');
    expect(page.get('sluice_inflight_requests')?.samples.map((s) => s.value)).toEqual([5, 0]);
    load = [{ model: 'm', version: '1', queued: 1, inFlight: 2 }];
    expect(lines((await metrics.scrape()).body, 'sluice_')).toEqual([
      'sluice_queue_length{model_name="m",model_version="1"} 1',
      'sluice_inflight_requests{model_name="m",model_version="1"} 2',
    ]);
    load = [];
    expect((await metrics.scrape()).body).not.toMatch(/sluice_(queue_length|inflight_requests)/);
  });

  it('keeps the page valid Prometheus text under a thousand model versions', async () => {
    const metrics = new PrometheusServingMetrics();
    const names = Array.from({ length: 1000 }, (_, i) => `model-${i}.v_${i % 7}`);
    for (const [i, model] of names.entries()) {
      metrics.versionAdded(model, `${i % 3}.0`);
      metrics.inferenceCompleted({ model, version: `${i % 3}.0`, ok: i % 2 === 0, latencyUs: 50 + i * 97, queueUs: i });
      metrics.batchCompleted({ model, version: `${i % 3}.0`, size: 1 + (i % 40), computeUs: 10 * i });
      metrics.workflowNodeCompleted({ workflow: `w-${i % 10}`, node: `n_${i % 5}`, status: 'ok', latencyUs: i });
    }
    metrics.errorAnswered('SLUICE_MODEL_NOT_FOUND', 'http');
    metrics.watchUtilization(() => names.map((model, i) => ({ model, version: `${i % 3}.0`, instance: `${model}-1`, utilization: (i % 11) / 10 })));
    const families = parsePrometheusText((await metrics.scrape()).body);
    expect(families.get('ts_inference_requests_total')?.samples).toHaveLength(1000);
    expect(families.get('sluice_inference_failures_total')?.samples).toHaveLength(500);
    expect(families.get('sluice_instance_utilization_ratio')?.samples).toHaveLength(1000);
    expect(families.get('sluice_batch_size')?.samples).toHaveLength(1000 * 14);
    expect(families.get('sluice_inference_request_duration_seconds')?.samples).toHaveLength(1000 * 21);
  });

  it('serves only the metrics named when asked by name', async () => {
    const metrics = metricsWith('m@1');
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: true, latencyUs: 100, queueUs: 5 });
    const page = (await metrics.scrape(new Set(['ts_inference_requests_total', 'ts_queue_latency_microseconds', 'no_such_metric']))).body;
    expect([...parsePrometheusText(page).keys()]).toEqual(['ts_inference_requests_total', 'ts_queue_latency_microseconds']);
  });

  it('drops the series of an unregistered version from the page, and counts a registered-again one from zero', async () => {
    const metrics = metricsWith('m@1', 'm@2');
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: false, latencyUs: 100, queueUs: 5 });
    metrics.batchCompleted({ model: 'm', version: '1', size: 1, computeUs: 10 });
    metrics.inferenceCompleted({ model: 'm', version: '2', ok: true, latencyUs: 100, queueUs: 5 });
    metrics.versionRemoved('m', '1');
    const page = (await metrics.scrape()).body;
    expect(page.split('\n').filter((l) => l.includes('model_version="1"'))).toEqual([]);
    expect(lines(page, 'ts_inference_requests_total{')).toEqual(['ts_inference_requests_total{model_name="m",model_version="2"} 1']);
    metrics.versionAdded('m', '1');
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: true, latencyUs: 100, queueUs: 5 });
    expect(lines((await metrics.scrape()).body, 'ts_inference_requests_total{model_name="m",model_version="1"}')).toEqual(['ts_inference_requests_total{model_name="m",model_version="1"} 1']);
  });

  it('counts nothing for a version that is not registered: a request that ends after its version left brings no series back', async () => {
    const metrics = metricsWith('m@1');
    metrics.versionRemoved('m', '1');
    metrics.inferenceCompleted({ model: 'm', version: '1', ok: false, latencyUs: 100, queueUs: 5 });
    metrics.batchCompleted({ model: 'm', version: '1', size: 1, computeUs: 10 });
    expect((await metrics.scrape()).body).not.toContain('model_name="m"');
  });

  it('keeps the page to the versions registered now after a thousand versions came and went', async () => {
    const metrics = metricsWith('kept@1');
    metrics.inferenceCompleted({ model: 'kept', version: '1', ok: false, latencyUs: 100, queueUs: 5 });
    const before = (await metrics.scrape()).body;
    for (let i = 0; i < 1000; i++) {
      metrics.versionAdded(`churn-${i}`, '1');
      metrics.inferenceCompleted({ model: `churn-${i}`, version: '1', ok: false, latencyUs: 100, queueUs: 5 });
      metrics.batchCompleted({ model: `churn-${i}`, version: '1', size: 1, computeUs: 10 });
      await metrics.scrape();
      metrics.versionRemoved(`churn-${i}`, '1');
    }
    expect((await metrics.scrape()).body).toBe(before);
  });
});
