import { describe, expect, it } from '@jest/globals';
import type { InferenceJob, InferenceOutcome } from '../../../src/batching/scheduler.js';
import type { Tensor } from '../../../src/sdk/tensor/index.js';
import { InferenceService } from '../../../src/serving/inference-service.js';
import { RequestBudget, signalCancellation } from '../../../src/budget/request-budget.js';
import type { ModelRegistry } from '../../../src/serving/model-registry.js';
import type { ModelVersion } from '../../../src/serving/model-version.js';
import { PrometheusServingMetrics } from '../../../src/telemetry/metrics/prometheus-serving-metrics.js';

const RESPONSE_TIMEOUT_MS = 1000;
const INPUT: Tensor = { name: 'x', datatype: 'FP32', shape: [1, 1], data: new Float32Array([1]) };

/**
 * A registry holding one version whose scheduler only records the jobs it is given: what is under test is
 * how the inference service turns a request's knobs into the scheduler's job.
 */
function serviceRecordingJobs(): { service: InferenceService; jobs: InferenceJob[] } {
  const jobs: InferenceJob[] = [];
  const spec = { name: 'x', datatype: 'FP32' as const, shape: [-1, 1] };
  const version = {
    name: 'm',
    version: '1',
    state: 'ready',
    description: { inputs: [spec], outputs: [{ ...spec, name: 'y' }] },
    acceptsDatatype: (a: { datatype: string }, b: string) => a.datatype === b,
    settings: { responseTimeoutMs: RESPONSE_TIMEOUT_MS },
    scheduler: {
      enqueue: (job: InferenceJob): Promise<InferenceOutcome> => {
        jobs.push(job);
        return Promise.resolve({ outputs: [], queueUs: 0, computeUs: 0, instanceId: 'i', batchSize: 1 });
      },
    },
  } as unknown as ModelVersion;
  const registry = { resolve: () => version } as unknown as ModelRegistry;
  return { service: new InferenceService(registry, new PrometheusServingMetrics()), jobs };
}

describe('InferenceService deadlines', () => {
  it('makes a client deadline shorter than the response timeout the job’s deadline', async () => {
    const { service, jobs } = serviceRecordingJobs();
    const before = performance.now();
    await service.inferTensors({ model: 'm', inputs: [INPUT], budget: RequestBudget.of({ deadlineMs: 50 }) });
    const deadline = jobs[0]?.budget.deadline ?? NaN;
    expect(deadline).toBeGreaterThanOrEqual(before + 50);
    expect(deadline).toBeLessThanOrEqual(performance.now() + 50);
  });

  it('keeps the response timeout when the client deadline is later', async () => {
    const { service, jobs } = serviceRecordingJobs();
    const before = performance.now();
    await service.inferTensors({ model: 'm', inputs: [INPUT], budget: RequestBudget.of({ deadlineMs: 60_000 }) });
    const deadline = jobs[0]?.budget.deadline ?? NaN;
    expect(deadline).toBeGreaterThanOrEqual(before + RESPONSE_TIMEOUT_MS);
    expect(deadline).toBeLessThanOrEqual(performance.now() + RESPONSE_TIMEOUT_MS);
  });

  it('passes the client’s cancellation signal to the job', async () => {
    const { service, jobs } = serviceRecordingJobs();
    const signal = new AbortController().signal;
    await service.inferTensors({ model: 'm', inputs: [INPUT], budget: RequestBudget.of({ cancellation: signalCancellation(signal) }) });
    expect(jobs[0]?.budget.signal).toBe(signal);
  });
});
