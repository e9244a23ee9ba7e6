import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { parsePrometheusText, type PromFamily } from '../support/prometheus-text.js';
import { untilQueued } from '../support/queue-wait.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The gauges an autoscaler reads from the `/metrics` page: the `held` model (identity, one worker, no
 * batching) runs behind a gate the test opens, so a request can be kept running and another queued
 * behind it for as long as the test looks.
 */
describe('metrics an autoscaler reads', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/held/'));
  const infer = (value: number): Promise<{ status: number }> =>
    requestJson(`${t.inference}/v2/models/held/infer`, { method: 'POST', json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1], data: [value] }] } });

  const page = async (): Promise<Map<string, PromFamily>> => parsePrometheusText(await (await fetch(`${t.metrics}/metrics`)).text());
  const gauge = (families: Map<string, PromFamily>, name: string): number | undefined =>
    families.get(name)?.samples.find((s) => s.labels['model_name'] === 'held' && s.labels['model_version'] === '1')?.value;

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      prepare: async (store) => {
        await addStoreModel(store, 'held', (dir) => writeIdentityModel(dir, 'FP32', [-1]), { name: 'held', version: '1', workers: { min: 1, max: 1 } });
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('shows an idle version with nothing queued and nothing in flight', async () => {
    const families = await page();
    expect(families.get('sluice_queue_length')?.type).toBe('gauge');
    expect(families.get('sluice_inflight_requests')?.type).toBe('gauge');
    expect(gauge(families, 'sluice_queue_length')).toBe(0);
    expect(gauge(families, 'sluice_inflight_requests')).toBe(0);
  });

  it('counts a running request in flight, requests waiting behind it (tensors, or through the handler) in the queue too, and all gone once answered', async () => {
    runtime.hold();
    const started = runtime.runsStarted;
    const first = infer(1);
    await runtime.untilRunsStarted(started + 1);
    const running = await page();
    expect(gauge(running, 'sluice_queue_length')).toBe(0);
    expect(gauge(running, 'sluice_inflight_requests')).toBe(1);
    const second = infer(2);
    await untilQueued(t, 'held', 1);
    const queued = await page();
    expect(gauge(queued, 'sluice_queue_length')).toBe(1);
    expect(gauge(queued, 'sluice_inflight_requests')).toBe(2);
    const third = requestJson(`${t.inference}/predictions/held`, { method: 'POST', json: [3] });
    await untilQueued(t, 'held', 2);
    const more = await page();
    expect(gauge(more, 'sluice_queue_length')).toBe(2);
    expect(gauge(more, 'sluice_inflight_requests')).toBe(3);
    runtime.release();
    expect([(await first).status, (await second).status, (await third).status]).toEqual([200, 200, 200]);
    const idle = await page();
    expect(gauge(idle, 'sluice_queue_length')).toBe(0);
    expect(gauge(idle, 'sluice_inflight_requests')).toBe(0);
  });

  it('does not count a request refused for bad input as in flight', async () => {
    const { status } = await requestJson(`${t.inference}/v2/models/held/infer`, { method: 'POST', json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 2], data: [1, 2, 3, 4] }] } });
    expect(status).toBe(400);
    expect(gauge(await page(), 'sluice_inflight_requests')).toBe(0);
  });

  it('serves the process metrics under their conventional names', async () => {
    const families = await page();
    for (const name of ['process_cpu_user_seconds_total', 'process_cpu_system_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_utilization_ratio']) {
      expect([name, families.get(name)?.samples.length]).toEqual([name, 1]);
    }
    expect(families.get('process_resident_memory_bytes')?.samples[0]?.value).toBeGreaterThan(0);
  });

  it('drops the gauges of an unregistered version', async () => {
    expect((await requestJson(`${t.management}/models/held/1`, { method: 'DELETE' })).status).toBe(200);
    const families = await page();
    expect(gauge(families, 'sluice_queue_length')).toBeUndefined();
    expect(gauge(families, 'sluice_inflight_requests')).toBeUndefined();
  });
});
