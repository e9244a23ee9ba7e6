import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { FifoScheduler, type RunBatch } from '../../../src/batching/fifo-scheduler.js';
import type { ModelInstance } from '../../../src/batching/model-instance.js';
import type { InferenceJob, InferenceOutcome } from '../../../src/batching/scheduler.js';
import { SluiceError } from '../../../src/common/errors/index.js';
import type { Tensor } from '../../../src/common/tensor/index.js';
import type { JobResult } from '../../../src/executors/executor.js';

/** One call of the fake `runBatch`, held open until the test ends it. */
interface Run {
  readonly instance: ModelInstance;
  readonly jobs: readonly InferenceJob[];
  finish(results?: readonly JobResult[]): void;
  /** Rejects the run, as a broken executor would. */
  reject(error: unknown): void;
}

/** What became of one job's promise. */
interface Answer {
  readonly job: InferenceJob;
  outcomes: InferenceOutcome[];
  errors: SluiceError[];
}

const output = (name: string): Tensor => ({ name, datatype: 'FP32', shape: [1], data: new Float32Array([1]) });

class Harness {
  readonly runs: Run[] = [];
  readonly answers: Answer[] = [];
  readonly scheduler: FifoScheduler;

  constructor(options: { instances?: number; queueSize?: number } = {}) {
    const runBatch: RunBatch = (instance, jobs) =>
      new Promise<readonly JobResult[]>((resolve, reject) => {
        this.runs.push({
          instance,
          jobs,
          finish: (results) => {
            resolve(results ?? jobs.map((job) => ({ ok: true, outputs: [output(tagOf(job))] })));
          },
          reject,
        });
      });
    this.scheduler = new FifoScheduler({
      model: 'iris',
      version: '2',
      queueSize: options.queueSize ?? 10,
      instances: options.instances ?? 1,
      runBatch,
    });
  }

  /** Enqueues a job tagged `tag` (its input name) and records how it is answered. */
  submit(tag: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Answer {
    const job: InferenceJob = {
      inputs: [output(tag)],
      deadline: performance.now() + (options.timeoutMs ?? 60_000),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const answer: Answer = { job, outcomes: [], errors: [] };
    this.answers.push(answer);
    this.scheduler.enqueue(job).then(
      (o) => answer.outcomes.push(o),
      (e: unknown) => answer.errors.push(e as SluiceError),
    );
    return answer;
  }

  /** Tags of the jobs run so far, in run order. */
  ranTags(): string[] {
    return this.runs.flatMap((run) => run.jobs.map(tagOf));
  }

  run(tag: string): Run {
    const run = this.runs.find((r) => r.jobs.some((job) => tagOf(job) === tag));
    if (run === undefined) throw new Error(`job ${tag} has not run`);
    return run;
  }

  /** Ends the run of job `tag` and lets the scheduler react. */
  async finish(tag: string, results?: readonly JobResult[]): Promise<void> {
    this.run(tag).finish(results);
    await settle();
  }
}

function tagOf(job: InferenceJob): string {
  return job.inputs[0]?.name ?? '?';
}

async function settle(ms = 0): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('FifoScheduler: running jobs', () => {
  it('runs a job at once when an instance is idle', () => {
    const h = new Harness();
    h.submit('a');
    expect(h.ranTags()).toEqual(['a']);
  });

  it('runs one job per run', () => {
    const h = new Harness();
    h.submit('a');
    h.submit('b');
    expect(h.runs[0]!.jobs).toHaveLength(1);
  });

  it('answers with the run’s outputs and the instance that ran it', async () => {
    const h = new Harness();
    const a = h.submit('a');
    await h.finish('a');
    expect(a.errors).toEqual([]);
    expect(a.outcomes).toHaveLength(1);
    expect(a.outcomes[0]).toMatchObject({ outputs: [output('a')], instanceId: 'iris-2-1' });
    expect(typeof a.outcomes[0]!.queueUs).toBe('number');
    expect(typeof a.outcomes[0]!.computeUs).toBe('number');
  });

  it('answers a job whose run failed with that job’s error', async () => {
    const h = new Harness();
    const a = h.submit('a');
    const error = new SluiceError('SLUICE_INFERENCE_FAILED', 'inference failed: bad input');
    await h.finish('a', [{ ok: false, error }]);
    expect(a.errors).toEqual([error]);
  });

  it('answers SLUICE_INTERNAL when the run returns no result for the job', async () => {
    const h = new Harness();
    const a = h.submit('a');
    await h.finish('a', []);
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_INTERNAL', message: 'the executor returned no result for a job' });
  });

  it('answers SLUICE_INFERENCE_FAILED with the reason when the run rejects', async () => {
    const h = new Harness();
    const a = h.submit('a');
    h.run('a').reject(new Error('session lost'));
    await settle();
    expect(a.errors).toHaveLength(1);
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_INFERENCE_FAILED', message: 'inference failed: session lost' });
  });

  it('answers with the SluiceError a run rejects with', async () => {
    const h = new Harness();
    const a = h.submit('a');
    const error = new SluiceError('SLUICE_INTERNAL', 'executor state lost');
    h.run('a').reject(error);
    await settle();
    expect(a.errors).toEqual([error]);
  });

  it('frees the instance for the next job after a run rejects', async () => {
    const h = new Harness();
    h.submit('a');
    const b = h.submit('b');
    h.run('a').reject(new Error('session lost'));
    await settle();
    expect(h.ranTags()).toEqual(['a', 'b']);
    await h.finish('b');
    expect(b.outcomes).toHaveLength(1);
  });

  it('answers SLUICE_INFERENCE_FAILED and stays usable when runBatch throws synchronously', async () => {
    const scheduler = new FifoScheduler({
      model: 'iris',
      version: '2',
      queueSize: 10,
      instances: 1,
      runBatch: () => {
        throw new Error('not ready');
      },
    });
    const deadline = performance.now() + 60_000;
    await expect(scheduler.enqueue({ inputs: [], deadline })).rejects.toMatchObject({ code: 'SLUICE_INFERENCE_FAILED', message: 'inference failed: not ready' });
    expect(scheduler.instanceInfo().map((i) => i.state)).toEqual(['idle']);
    expect(scheduler.inflightCount()).toBe(0);
  });

  it('runs queued jobs in the order they came', async () => {
    const h = new Harness();
    for (const tag of ['a', 'b', 'c', 'd']) h.submit(tag);
    expect(h.ranTags()).toEqual(['a']);
    await h.finish('a');
    await h.finish('b');
    await h.finish('c');
    expect(h.ranTags()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs as many jobs at once as it has instances', () => {
    const h = new Harness({ instances: 2 });
    for (const tag of ['a', 'b', 'c']) h.submit(tag);
    expect(h.ranTags()).toEqual(['a', 'b']);
    expect(h.run('a').instance).not.toBe(h.run('b').instance);
  });

  it('starts the next job on the instance that became free', async () => {
    const h = new Harness({ instances: 2 });
    for (const tag of ['a', 'b', 'c']) h.submit(tag);
    await h.finish('b');
    expect(h.run('c').instance).toBe(h.run('b').instance);
  });
});

describe('FifoScheduler: refusing jobs', () => {
  it('refuses a job with SLUICE_QUEUE_FULL when the queue is full, telling when to retry', async () => {
    const h = new Harness({ queueSize: 1 });
    h.submit('a');
    h.submit('b');
    const c = h.submit('c');
    await settle();
    expect(c.errors[0]).toMatchObject({
      code: 'SLUICE_QUEUE_FULL',
      message: 'the job queue of model `iris` version `2` is full (1 waiting); retry after 1 s or raise jobQueueSize',
      details: { retryAfterSeconds: 1, queueSize: 1 },
    });
    expect(h.ranTags()).toEqual(['a']);
  });

  it('does not count the running job against the queue size', async () => {
    const h = new Harness({ queueSize: 1 });
    const a = h.submit('a');
    const b = h.submit('b');
    await settle();
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('frees a queue slot when a queued job is cancelled', async () => {
    const h = new Harness({ queueSize: 1 });
    const controller = new AbortController();
    h.submit('a');
    h.submit('b', { signal: controller.signal });
    controller.abort();
    const c = h.submit('c');
    await h.finish('a');
    expect(c.errors).toEqual([]);
    expect(h.ranTags()).toEqual(['a', 'c']);
  });

  it('refuses a job with SLUICE_MODEL_NO_WORKERS when it has no instances', async () => {
    const h = new Harness({ instances: 0 });
    const a = h.submit('a');
    await settle();
    expect(a.errors[0]).toMatchObject({
      code: 'SLUICE_MODEL_NO_WORKERS',
      message: 'model `iris` version `2` has no workers; scale it up with PUT /models/iris/2?min_worker=1',
    });
    expect(h.runs).toEqual([]);
  });

  it('refuses a job whose client has already gone', async () => {
    const h = new Harness();
    const controller = new AbortController();
    controller.abort();
    const a = h.submit('a', { signal: controller.signal });
    await settle();
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the request was cancelled by the client before it was queued' });
    expect(h.runs).toEqual([]);
  });
});

describe('FifoScheduler: deadlines', () => {
  it('answers SLUICE_RESPONSE_TIMEOUT for a job still queued at its deadline', async () => {
    const h = new Harness();
    h.submit('a');
    const b = h.submit('b', { timeoutMs: 50 });
    await settle(50);
    expect(b.errors[0]).toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', details: { stage: 'queued' } });
    expect(b.errors[0]!.message).toMatch(
      /^model `iris` version `2` did not answer within the response timeout \(\d+ ms, still queued\); raise responseTimeoutMs or add workers$/,
    );
  });

  it('never runs a job that timed out while queued', async () => {
    const h = new Harness();
    h.submit('a');
    h.submit('b', { timeoutMs: 50 });
    h.submit('c');
    await settle(50);
    await h.finish('a');
    expect(h.ranTags()).toEqual(['a', 'c']);
  });

  it('expires a job whose deadline has passed when it is submitted to an idle instance, without running it', async () => {
    const h = new Harness();
    const a = h.submit('a', { timeoutMs: 0 });
    await settle();
    expect(h.runs).toEqual([]);
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', details: { stage: 'queued' } });
    expect(a.errors[0]!.message).toMatch(/\(\d+ ms, still queued\)/);
  });

  it('expires a queued job whose deadline passed before its timer fired and runs the next one instead', async () => {
    const h = new Harness();
    h.submit('a');
    const b = h.submit('b', { timeoutMs: 0 });
    h.submit('c');
    await h.finish('a');
    expect(h.ranTags()).toEqual(['a', 'c']);
    expect(b.errors.map((e) => [e.code, e.details['stage']])).toEqual([['SLUICE_RESPONSE_TIMEOUT', 'queued']]);
  });

  it('answers a job that is still running at its deadline with SLUICE_RESPONSE_TIMEOUT at once', async () => {
    const h = new Harness();
    const a = h.submit('a', { timeoutMs: 50 });
    await settle(50);
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', details: { stage: 'executing' } });
    expect(a.errors[0]!.message).toMatch(/\(\d+ ms, still running\)/);
  });

  it('keeps the instance busy until a timed-out run ends, then serves the next job', async () => {
    const h = new Harness();
    h.submit('a', { timeoutMs: 50 });
    const b = h.submit('b');
    await settle(50);
    expect(h.ranTags()).toEqual(['a']);
    expect(h.scheduler.instanceInfo()[0]!.state).toBe('busy');
    await h.finish('a');
    expect(h.ranTags()).toEqual(['a', 'b']);
    await h.finish('b');
    expect(b.outcomes).toHaveLength(1);
  });

  it('drops the late result of a timed-out run', async () => {
    const h = new Harness();
    const a = h.submit('a', { timeoutMs: 50 });
    await settle(50);
    await h.finish('a');
    expect(a.outcomes).toEqual([]);
    expect(a.errors.map((e) => e.code)).toEqual(['SLUICE_RESPONSE_TIMEOUT']);
  });

  it('does not time out a job answered before its deadline', async () => {
    const h = new Harness();
    const a = h.submit('a', { timeoutMs: 50 });
    await h.finish('a');
    await settle(100);
    expect(a.errors).toEqual([]);
    expect(a.outcomes).toHaveLength(1);
  });
});

describe('FifoScheduler: client cancellation', () => {
  it('drops a queued job whose client aborts, without running it', async () => {
    const h = new Harness();
    const controller = new AbortController();
    h.submit('a');
    const b = h.submit('b', { signal: controller.signal });
    controller.abort();
    await settle();
    expect(b.errors[0]).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the client cancelled the request while it was queued' });
    await h.finish('a');
    expect(h.ranTags()).toEqual(['a']);
  });

  it('lets a running job finish when its client aborts', async () => {
    const h = new Harness();
    const controller = new AbortController();
    const a = h.submit('a', { signal: controller.signal });
    controller.abort();
    await settle();
    expect(a.errors).toEqual([]);
    await h.finish('a');
    expect(a.outcomes).toHaveLength(1);
  });
});

describe('FifoScheduler: scaling', () => {
  it('starts more concurrent runs when scaled up', () => {
    const h = new Harness();
    for (const tag of ['a', 'b', 'c']) h.submit(tag);
    h.scheduler.scale(3);
    expect(h.ranTags()).toEqual(['a', 'b', 'c']);
    expect(h.scheduler.activeInstances()).toBe(3);
  });

  it('removes an idle instance at once when scaled down', () => {
    const h = new Harness({ instances: 2 });
    h.scheduler.scale(1);
    expect(h.scheduler.instanceInfo().map((i) => i.state)).toEqual(['idle']);
  });

  it('removes idle instances before retiring busy ones when scaled down', async () => {
    const h = new Harness({ instances: 2 });
    h.submit('a');
    h.submit('b');
    await h.finish('a');
    h.scheduler.scale(1);
    expect(h.scheduler.instanceInfo().map((i) => [i.id, i.state])).toEqual([['iris-2-2', 'busy']]);
  });

  it('retires a busy instance after its run when scaled down, losing no job', async () => {
    const h = new Harness({ instances: 2 });
    const answers = ['a', 'b', 'c'].map((tag) => h.submit(tag));
    h.scheduler.scale(1);
    expect(h.scheduler.activeInstances()).toBe(1);
    expect(h.scheduler.instanceInfo().map((i) => i.state)).toEqual(['busy', 'retiring']);
    await h.finish('b');
    expect(h.scheduler.instanceInfo()).toHaveLength(1);
    expect(h.ranTags()).toEqual(['a', 'b']);
    await h.finish('a');
    await h.finish('c');
    expect(answers.map((a) => a.outcomes.length)).toEqual([1, 1, 1]);
  });

  it('brings a retiring instance back when scaled up again', async () => {
    const h = new Harness({ instances: 2 });
    h.submit('a');
    h.submit('b');
    h.scheduler.scale(1);
    h.scheduler.scale(2);
    expect(h.scheduler.instanceInfo().map((i) => i.state)).toEqual(['busy', 'busy']);
    h.submit('c');
    await h.finish('b');
    expect(h.ranTags()).toEqual(['a', 'b', 'c']);
  });

  it('answers queued jobs with SLUICE_MODEL_NO_WORKERS when scaled to zero', async () => {
    const h = new Harness();
    const a = h.submit('a');
    const b = h.submit('b');
    h.scheduler.scale(0);
    await settle();
    expect(b.errors[0]).toMatchObject({
      code: 'SLUICE_MODEL_NO_WORKERS',
      message: 'model `iris` version `2` was scaled to zero workers while this request waited',
    });
    await h.finish('a');
    expect(a.outcomes).toHaveLength(1);
    expect(h.ranTags()).toEqual(['a']);
  });

  it('refuses new jobs with SLUICE_MODEL_NO_WORKERS once scaled to zero', async () => {
    const h = new Harness();
    h.scheduler.scale(0);
    const a = h.submit('a');
    await settle();
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_MODEL_NO_WORKERS' });
  });

  it('names instances after the model and version', () => {
    const h = new Harness({ instances: 2 });
    expect(h.scheduler.instanceInfo().map((i) => i.id)).toEqual(['iris-2-1', 'iris-2-2']);
  });
});

describe('FifoScheduler: drain and stop', () => {
  it('drains at once when nothing is in flight', async () => {
    const h = new Harness();
    await expect(h.scheduler.drain(1000)).resolves.toBe(true);
  });

  it('refuses new jobs with SLUICE_MODEL_UNLOADING while draining', async () => {
    const h = new Harness();
    void h.scheduler.drain(1000);
    const a = h.submit('a');
    await settle();
    expect(a.errors[0]).toMatchObject({
      code: 'SLUICE_MODEL_UNLOADING',
      message: 'model `iris` version `2` is being unloaded; send the request to another version or retry later',
    });
  });

  it('waits for queued and running jobs to be answered before it resolves true', async () => {
    const h = new Harness();
    const answers = [h.submit('a'), h.submit('b')];
    let drained: boolean | undefined;
    void h.scheduler.drain(1000).then((d) => (drained = d));
    await h.finish('a');
    expect(drained).toBeUndefined();
    await h.finish('b');
    expect(drained).toBe(true);
    expect(answers.map((a) => a.outcomes.length)).toEqual([1, 1]);
  });

  it('resolves false when jobs are still in flight at the timeout', async () => {
    const h = new Harness();
    h.submit('a');
    let drained: boolean | undefined;
    void h.scheduler.drain(100).then((d) => (drained = d));
    await settle(99);
    expect(drained).toBeUndefined();
    await settle(1);
    expect(drained).toBe(false);
  });

  it('answers queued jobs with SLUICE_MODEL_UNLOADING on stop, without running them', async () => {
    const h = new Harness();
    h.submit('a');
    const b = h.submit('b');
    void h.scheduler.stop();
    await settle();
    expect(b.errors[0]).toMatchObject({
      code: 'SLUICE_MODEL_UNLOADING',
      message: 'model `iris` version `2` is being unloaded; the request was not run',
    });
    await h.finish('a');
    expect(h.ranTags()).toEqual(['a']);
  });

  it('answers queued jobs with the given reason on stop', async () => {
    const h = new Harness();
    h.submit('a');
    const b = h.submit('b');
    const reason = new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down');
    void h.scheduler.stop(reason);
    await settle();
    expect(b.errors).toEqual([reason]);
  });

  it('waits for running jobs on stop and lets them answer', async () => {
    const h = new Harness();
    const a = h.submit('a');
    let stopped = false;
    void h.scheduler.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    await h.finish('a');
    expect(stopped).toBe(true);
    expect(a.outcomes).toHaveLength(1);
  });

  it('stops at once when nothing runs', async () => {
    const h = new Harness();
    await expect(h.scheduler.stop()).resolves.toBeUndefined();
  });

  it('refuses new jobs with SLUICE_MODEL_UNLOADING after stop', async () => {
    const h = new Harness();
    await h.scheduler.stop();
    const a = h.submit('a');
    await settle();
    expect(a.errors[0]).toMatchObject({ code: 'SLUICE_MODEL_UNLOADING' });
  });
});

describe('FifoScheduler: bookkeeping', () => {
  it('counts queued plus running jobs as in flight', async () => {
    const h = new Harness();
    const controller = new AbortController();
    expect(h.scheduler.inflightCount()).toBe(0);
    h.submit('a');
    h.submit('b');
    h.submit('c', { signal: controller.signal });
    expect(h.scheduler.inflightCount()).toBe(3);
    controller.abort();
    expect(h.scheduler.inflightCount()).toBe(2);
    await h.finish('a');
    expect(h.scheduler.inflightCount()).toBe(1);
    await h.finish('b');
    expect(h.scheduler.inflightCount()).toBe(0);
  });

  it('stops counting a job that timed out while queued', async () => {
    const h = new Harness();
    h.submit('a');
    h.submit('b', { timeoutMs: 10 });
    await settle(10);
    expect(h.scheduler.inflightCount()).toBe(1);
    expect(h.scheduler.queueInfo().pending).toBe(0);
  });

  it('drains once the run of a job that timed out while running has ended', async () => {
    const h = new Harness();
    h.submit('a', { timeoutMs: 10 });
    await settle(10);
    let drained: boolean | undefined;
    void h.scheduler.drain(1000).then((d) => (drained = d));
    await settle();
    expect(drained).toBeUndefined();
    await h.finish('a');
    expect(drained).toBe(true);
  });

  it('keeps counting a job that timed out while running until its run ends', async () => {
    const h = new Harness();
    h.submit('a', { timeoutMs: 10 });
    await settle(10);
    expect(h.scheduler.inflightCount()).toBe(1);
    await h.finish('a');
    expect(h.scheduler.inflightCount()).toBe(0);
  });

  it('reports pending, executing and capacity', () => {
    const h = new Harness({ queueSize: 5 });
    h.submit('a');
    h.submit('b');
    expect(h.scheduler.queueInfo()).toEqual({ pending: 1, executing: 1, capacity: 5 });
  });

  it('counts the jobs each instance served', async () => {
    const h = new Harness();
    h.submit('a');
    h.submit('b');
    await h.finish('a');
    await h.finish('b');
    expect(h.scheduler.instanceInfo()[0]).toMatchObject({ state: 'idle', jobsServed: 2 });
  });

  it('answers every job exactly once through timeouts, cancellations, scaling and stop', async () => {
    const h = new Harness({ instances: 2, queueSize: 4 });
    const controller = new AbortController();
    h.submit('a', { timeoutMs: 10 });
    h.submit('b');
    h.submit('c', { timeoutMs: 10 });
    h.submit('d', { signal: controller.signal });
    h.submit('e');
    h.submit('f');
    h.submit('g');
    controller.abort();
    await settle(10);
    h.scheduler.scale(1);
    await h.finish('a');
    await h.finish('b');
    const stopped = h.scheduler.stop();
    for (const run of h.runs) run.finish();
    await settle();
    await stopped;
    h.submit('h');
    await settle();
    expect(h.answers.map((a) => a.outcomes.length + a.errors.length)).toEqual(h.answers.map(() => 1));
    expect(h.ranTags()).toEqual(['a', 'b', 'e']);
    expect(h.answers.map((a) => a.errors[0]?.code ?? 'ok')).toEqual([
      'SLUICE_RESPONSE_TIMEOUT',
      'ok',
      'SLUICE_RESPONSE_TIMEOUT',
      'SLUICE_REQUEST_INVALID',
      'ok',
      'SLUICE_MODEL_UNLOADING',
      'SLUICE_QUEUE_FULL',
      'SLUICE_MODEL_UNLOADING',
    ]);
  });
});
