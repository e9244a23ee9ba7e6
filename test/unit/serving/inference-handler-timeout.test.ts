import { describe, expect, it } from '@jest/globals';
import { trace } from '@opentelemetry/api';
import type { InferenceJob, InferenceOutcome } from '../../../src/batching/scheduler.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import type { Tensor } from '../../../src/sdk/tensor/index.js';
import type { Handler, PreparedRequest } from '../../../src/sdk/handler/handler.js';
import { InferenceService } from '../../../src/serving/inference-service.js';
import type { ModelRegistry } from '../../../src/serving/model-registry.js';
import type { ModelVersion } from '../../../src/serving/model-version.js';
import { PrometheusServingMetrics } from '../../../src/telemetry/metrics/prometheus-serving-metrics.js';
import { RecordingLogger } from '../../support/recording-logger.js';

const RESPONSE_TIMEOUT_MS = 30;
const INPUT: Tensor = { name: 'x', datatype: 'FP32', shape: [1, 1], data: new Float32Array([1]) };
const REQUEST = { model: 'm', request: { body: [1], contentType: 'application/json' } };

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A service over one version of `handler` in `state` whose scheduler records the jobs it is given and answers at once. */
function serviceWith(handler: Handler, state = 'ready'): { service: InferenceService; jobs: InferenceJob[] } {
  const jobs: InferenceJob[] = [];
  const spec = { name: 'x', datatype: 'FP32' as const, shape: [-1, 1] };
  const description = { name: 'm', version: '1', inputs: [spec], outputs: [{ ...spec, name: 'y' }] };
  const context = { model: description, logger: new RecordingLogger(), tracer: trace.getTracer('test'), signal: new AbortController().signal, config: {} };
  const version = {
    name: 'm',
    version: '1',
    state,
    handler,
    manifest: { handler: handler.name },
    description,
    acceptsDatatype: (a: { datatype: string }, b: string) => a.datatype === b,
    settings: { responseTimeoutMs: RESPONSE_TIMEOUT_MS, jobQueueSize: 10 },
    handlerContext: () => context,
    scheduler: {
      enqueue: (job: InferenceJob): Promise<InferenceOutcome> => {
        jobs.push(job);
        return Promise.resolve({ outputs: [INPUT], queueUs: 0, computeUs: 0, instanceId: 'i', batchSize: 1 });
      },
    },
  } as unknown as ModelVersion;
  const registry = { resolve: () => version } as unknown as ModelRegistry;
  return { service: new InferenceService(registry, new PrometheusServingMetrics()), jobs };
}

describe('InferenceService with a handler on the event loop', () => {
  it('answers SLUICE_RESPONSE_TIMEOUT naming the model, handler and stage when preprocess never settles', async () => {
    const { service, jobs } = serviceWith({ name: 'stuck', preprocess: () => new Promise(() => undefined), postprocess: () => Promise.resolve(['a']) });
    const answer = service.predict(REQUEST);
    await expect(answer).rejects.toThrow(SluiceError);
    await expect(answer).rejects.toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      details: { stage: 'preprocess' },
      message: expect.stringMatching(
        /^model `m` version `1` did not answer in time: its response timeout passed after \d+ ms while handler `stuck` ran preprocess, whose promise had not settled; raise the timeout or make the handler finish sooner$/,
      ) as unknown,
    });
    expect(jobs).toEqual([]);
  });

  it('answers SLUICE_RESPONSE_TIMEOUT when postprocess never settles', async () => {
    const { service } = serviceWith({ name: 'stuck', preprocess: () => Promise.resolve([{ inputs: [INPUT] }]), postprocess: () => new Promise(() => undefined) });
    await expect(service.predict(REQUEST)).rejects.toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', details: { stage: 'postprocess' } });
  });

  it('never queues a request whose preprocess settles after the request was answered', async () => {
    const late = deferred<readonly PreparedRequest[]>();
    const { service, jobs } = serviceWith({ name: 'slow', preprocess: () => late.promise, postprocess: () => Promise.resolve(['a']) });
    await expect(service.predict(REQUEST)).rejects.toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT' });
    late.resolve([{ inputs: [INPUT] }]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(jobs).toEqual([]);
  });

  it('leaves no unhandled rejection when a stage fails after the request was answered', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', record);
    try {
      const late = deferred<readonly unknown[]>();
      const { service } = serviceWith({ name: 'slow', preprocess: () => Promise.resolve([{ inputs: [INPUT] }]), postprocess: () => late.promise });
      await expect(service.predict(REQUEST)).rejects.toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT' });
      late.reject(new TypeError('failed late'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('refuses a request to a version being unloaded with a rejection, not a throw', async () => {
    const { service } = serviceWith({ name: 'quick', preprocess: () => Promise.resolve([{ inputs: [INPUT] }]), postprocess: () => Promise.resolve(['a']) }, 'unloading');
    let answer: Promise<unknown> | undefined;
    expect(() => {
      answer = service.predict(REQUEST);
    }).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: 'SLUICE_MODEL_UNLOADING' });
  });
});
