import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface Described {
  batching: Record<string, unknown>;
  recentBatchSizes: number[];
  workers: { utilization: number; batches: number }[];
  autoscale: { enabled: boolean; decisions: unknown[] };
}

/** "Why isn't it batching?" is answered by looking: settings, recent batch sizes and metrics. */
describe('batching visibility', () => {
  let t: TestServer;
  const input = Array.from({ length: 64 }, (_, i) => i / 64);
  const runtime = new GatedRuntime((path) => path.includes('/mlp/'));
  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['mlp'], runtime });
    await requestJson(
      `${t.management}/models?url=mlp&model_name=tuned&batch_size=32&max_batch_delay=2&preferred_batch_sizes=8,16&priority_levels=3&queue_policy=delay&preserve_ordering=true&job_queue_size=50`,
      { method: 'POST' },
    );
    // One request holds the instance while 39 queue up, so the batches that follow are known in advance.
    runtime.hold();
    const predict = (): Promise<unknown> => requestJson(`${t.inference}/predictions/tuned`, { method: 'POST', json: input });
    const first = predict();
    await runtime.untilRunsStarted(1);
    const rest = Array.from({ length: 39 }, predict);
    for (;;) {
      const [d] = (await requestJson(`${t.management}/models/tuned`)).body as [{ jobQueueStatus: { pendingRequests: number } }];
      if (d.jobQueueStatus.pendingRequests === 39) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    runtime.release();
    await Promise.all([first, ...rest]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the batching settings a version was registered with', async () => {
    const [described] = (await requestJson(`${t.management}/models/tuned`)).body as [Described];
    expect(described.batching).toEqual({
      enabled: true,
      maxBatchSize: 32,
      maxBatchDelayMs: 2,
      preferredBatchSizes: [8, 16],
      priorityLevels: 3,
      defaultPriority: 2,
      queuePolicy: 'delay',
      preserveOrdering: true,
    });
    expect(described).toMatchObject({ jobQueueSize: 50 });
  });

  it('shows the sizes of recent batches: the lone first request, then batches cut to the preferred 16', async () => {
    const [described] = (await requestJson(`${t.management}/models/tuned`)).body as [Described];
    expect(described.recentBatchSizes).toEqual([1, 16, 16, 7]);
  });

  it('exports batch sizes, compute time and instance utilisation as metrics', async () => {
    const page = await (await fetch(`${t.metrics}/metrics`)).text();
    expect(page).toMatch(/^sluice_batch_size_count\{model_name="tuned",model_version="1\.0"\} \d+$/m);
    expect(page).toMatch(/^sluice_batch_size_sum\{model_name="tuned",model_version="1\.0"\} 40$/m);
    expect(page).toMatch(/^sluice_inference_compute_duration_seconds_count\{model_name="tuned",model_version="1\.0"\} \d+$/m);
    expect(page).toMatch(/^sluice_instance_utilization_ratio\{model_name="tuned",model_version="1\.0",instance="tuned-1\.0-1"\} [\d.e-]+$/m);
  });

  it('keeps the batching settings in the snapshot', async () => {
    const { readFile } = await import('node:fs/promises');
    const snapshot = JSON.parse(await readFile(t.config.snapshot.file, 'utf8')) as { models: { name: string }[] };
    expect(snapshot.models.find((m) => m.name === 'tuned')).toMatchObject({
      batchSize: 32,
      maxBatchDelayMs: 2,
      preferredBatchSizes: [8, 16],
      priorityLevels: 3,
      defaultPriority: 2,
      queuePolicy: 'delay',
      preserveOrdering: true,
      jobQueueSize: 50,
    });
  });
});
