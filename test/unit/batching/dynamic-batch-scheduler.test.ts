import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { RequestBudget } from '../../../src/budget/request-budget.js';
import { lookedAtCancellation, toldCancellation } from '../../support/cancellations.js';
import type { BatchingPolicy } from '../../../src/batching/batching-policy.js';
import { DynamicBatchScheduler, type BatchReport } from '../../../src/batching/dynamic-batch-scheduler.js';
import { InstancePool } from '../../../src/batching/instance-pool.js';
import type { InferenceJob, InferenceOutcome } from '../../../src/batching/scheduler.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import type { Tensor } from '../../../src/sdk/tensor/index.js';
import { FakeExecutorModel, tagOf, taggedInput, type HeldRun } from './support/fake-executor.js';
import { RecordingLogger } from '../../support/recording-logger.js';

const POLICY: BatchingPolicy = {
  maxBatchSize: 4,
  maxBatchDelayMs: 0,
  preferredBatchSizes: [],
  priorityLevels: 3,
  defaultPriority: 2,
  queuePolicy: 'reject',
  preserveOrdering: false,
  queueSize: 16,
};

/** How a test request is made. */
interface RequestOptions {
  readonly rows?: number;
  readonly width?: number;
  readonly priority?: number;
  /** Hard deadline, from now. */
  readonly timeoutMs?: number;
  /** The request's own deadline, from now. */
  readonly queueTimeoutMs?: number;
  readonly isCancelled?: () => boolean;
  readonly signal?: AbortSignal;
  /** Sent with others in one turn of the event loop (a gRPC read, a multi-instance body). */
  readonly gather?: boolean;
}

/** What became of one request. */
interface Answer {
  readonly tag: number;
  readonly rows: number;
  readonly width: number;
  outcome?: InferenceOutcome;
  error?: SluiceError;
}

/** The output `y` the fake model computes for request `tag`: its input × 10. */
function expectedOutput(tag: number, rows = 1, width = 2): Tensor {
  const data = Float32Array.from({ length: rows * width }, (_, i) => (tag * 100 + i) * 10);
  return { name: 'y', datatype: 'FP32', shape: [rows, width], data };
}

async function settle(ms = 0): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

/** Lets every pending promise job run, and no timer or immediate. */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

/** A scheduler over a pool of fake instances whose runs the test ends by hand. */
class Harness {
  readonly logger = new RecordingLogger();
  readonly model = new FakeExecutorModel();
  readonly pool: InstancePool;
  readonly scheduler: DynamicBatchScheduler;
  readonly reports: BatchReport[] = [];
  /** Tags in the order their callers were answered. */
  readonly answered: number[] = [];

  private constructor(policy: Partial<BatchingPolicy>, batchable: boolean, wakeFromZero?: () => boolean) {
    // The pool reports available instances only once they started, after the scheduler exists.
    this.pool = new InstancePool(this.model, 'm-1', this.logger, () => {
      this.scheduler.instanceAvailable();
    });
    this.scheduler = new DynamicBatchScheduler({
      model: 'm',
      version: '1',
      policy: { ...POLICY, ...policy },
      batchable,
      pool: this.pool,
      onBatch: (report) => this.reports.push(report),
      ...(wakeFromZero ? { wakeFromZero } : {}),
    });
  }

  static async start(
    policy: Partial<BatchingPolicy> = {},
    options: { instances?: number; batchable?: boolean; wakeFromZero?: (h: Harness) => boolean } = {},
  ): Promise<Harness> {
    const wake = options.wakeFromZero;
    const h: Harness = new Harness(policy, options.batchable ?? true, wake ? () => wake(h) : undefined);
    h.pool.scale(options.instances ?? 1);
    await h.pool.started();
    return h;
  }

  submit(tag: number, options: RequestOptions = {}): Answer {
    const rows = options.rows ?? 1;
    const width = options.width ?? 2;
    const now = performance.now();
    const job: InferenceJob = {
      inputs: [taggedInput(tag, rows, width)],
      budget: RequestBudget.of(
        {
          deadlineMs: options.timeoutMs,
          timeoutMs: options.queueTimeoutMs,
          priority: options.priority,
          cancellation: options.signal ? toldCancellation(options.signal, options.isCancelled) : options.isCancelled ? lookedAtCancellation(options.isCancelled) : undefined,
        },
        now,
      ),
      ...(options.gather === true ? { gather: true } : {}),
    };
    const answer: Answer = { tag, rows, width };
    this.scheduler.enqueue(job).then(
      (outcome) => {
        answer.outcome = outcome;
        this.answered.push(tag);
      },
      (error: unknown) => {
        answer.error = error as SluiceError;
        this.answered.push(tag);
      },
    );
    return answer;
  }

  /** Tags of each batch handed to an instance, in run order. */
  batches(): number[][] {
    return this.model.runs.map((run) => run.batch.items.map((item) => tagOf(item.inputs[0])));
  }

  /** The latest run that holds request `tag`. */
  run(tag: number): HeldRun {
    const run = this.model.runs.findLast((r) => r.batch.items.some((item) => tagOf(item.inputs[0]) === tag));
    if (run === undefined) throw new Error(`request ${tag} has not run`);
    return run;
  }

  /** Ends the run of request `tag` with the fake model's outputs and lets the scheduler react. */
  async succeed(tag: number): Promise<void> {
    this.run(tag).succeed();
    await settle();
  }

  /** Rejects the run of request `tag`, as an instance that died would. */
  async crash(tag: number, message = 'device lost'): Promise<void> {
    this.run(tag).reject(new Error(message));
    await settle();
  }
}

beforeEach(() => {
  jest.useFakeTimers();
  jest.advanceTimersByTime(1000);
});

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('DynamicBatchScheduler: dispatch', () => {
  it('runs a lone request at once on an idle instance', async () => {
    const h = await Harness.start();
    h.submit(1);
    expect(h.batches()).toEqual([[1]]);
  });

  it('answers with the outputs, the instance and the batch size', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    await h.succeed(1);
    expect(a.outcome).toMatchObject({ outputs: [expectedOutput(1)], instanceId: 'm-1-1', batchSize: 1 });
  });

  it('reports the time from enqueue to the start of the run as queueUs', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    await settle(30);
    await h.succeed(1);
    await h.succeed(2);
    expect(b.outcome?.queueUs).toBe(30_000);
  });

  it('reports the run’s duration as computeUs', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    await settle(20);
    await h.succeed(1);
    expect(a.outcome?.computeUs).toBe(20_000);
  });

  it('batches the requests that queued while the instance was busy', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    h.submit(3);
    h.submit(4);
    await h.succeed(1);
    expect(h.batches()).toEqual([[1], [2, 3, 4]]);
  });

  /** Runs a batch of one, then one of four: the scheduler has seen requests arrive together. */
  async function underLoad(h: Harness): Promise<void> {
    for (let tag = 1; tag <= 5; tag++) h.submit(tag);
    await h.succeed(1);
    await h.succeed(2);
  }

  it('lets the requests that arrive in one turn share a batch once batches carry several requests', async () => {
    const h = await Harness.start({ maxBatchSize: 4 });
    await underLoad(h);
    h.submit(6);
    h.submit(7);
    h.submit(8);
    await settle();
    expect(h.batches()).toEqual([[1], [2, 3, 4, 5], [6, 7, 8]]);
  });

  it('runs a lone request at once again when requests come one at a time', async () => {
    const h = await Harness.start({ maxBatchSize: 4 });
    await underLoad(h);
    h.submit(6);
    await settle();
    await h.succeed(6);
    h.submit(7);
    expect(h.batches()).toEqual([[1], [2, 3, 4, 5], [6], [7]]);
  });

  it('caps a batch at maxBatchSize rows', async () => {
    const h = await Harness.start({ maxBatchSize: 4 });
    for (let tag = 1; tag <= 7; tag++) h.submit(tag);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.batches()).toEqual([[1], [2, 3, 4, 5], [6, 7]]);
  });

  it('counts rows, not requests, against maxBatchSize', async () => {
    const h = await Harness.start({ maxBatchSize: 4 });
    for (let tag = 1; tag <= 4; tag++) h.submit(tag, { rows: 2 });
    await h.succeed(1);
    expect(h.batches()).toEqual([[1], [2, 3]]);
  });

  it('gives each caller of a batch its own rows', async () => {
    const h = await Harness.start({ maxBatchSize: 8 });
    h.submit(1);
    const b = h.submit(2, { rows: 2 });
    const c = h.submit(3, { rows: 3 });
    await h.succeed(1);
    await h.succeed(2);
    expect([b.outcome?.outputs, c.outcome?.outputs]).toEqual([[expectedOutput(2, 2)], [expectedOutput(3, 3)]]);
  });

  it('tells each caller of a batch the batch size', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    const c = h.submit(3);
    await h.succeed(1);
    await h.succeed(2);
    expect([b.outcome?.batchSize, c.outcome?.batchSize]).toEqual([2, 2]);
  });

  it('puts only compatible requests in one batch', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2, { width: 2 });
    h.submit(3, { width: 3 });
    h.submit(4, { width: 2 });
    h.submit(5, { width: 3 });
    await h.succeed(1);
    await h.succeed(2);
    expect(h.batches()).toEqual([[1], [2, 4], [3, 5]]);
  });

  it('answers every request of a burst of mixed shapes with its own rows', async () => {
    const h = await Harness.start();
    const answers = [h.submit(1), h.submit(2, { width: 2 }), h.submit(3, { width: 3, rows: 2 }), h.submit(4, { width: 2, rows: 3 }), h.submit(5, { width: 3 })];
    await h.succeed(1);
    await h.succeed(2);
    await h.succeed(3);
    expect(answers.map((a) => a.outcome?.outputs)).toEqual(answers.map((a) => [expectedOutput(a.tag, a.rows, a.width)]));
  });

  it('runs every request alone when the model cannot batch', async () => {
    const h = await Harness.start({}, { batchable: false });
    h.submit(1);
    h.submit(2);
    h.submit(3);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.batches()).toEqual([[1], [2], [3]]);
  });

  it('cuts a batch to a preferred size it reached', async () => {
    const h = await Harness.start({ maxBatchSize: 4, preferredBatchSizes: [2] });
    for (let tag = 1; tag <= 4; tag++) h.submit(tag);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.batches()).toEqual([[1], [2, 3], [4]]);
  });

  it('starts a batch on every idle instance', async () => {
    const h = await Harness.start({}, { instances: 2 });
    h.submit(1);
    h.submit(2);
    expect(h.model.runs.map((r) => r.instance.serial)).toEqual([1, 2]);
  });

  it('reports each batch it ran', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2, { rows: 2 });
    h.submit(3);
    await h.succeed(1);
    await settle(5);
    await h.succeed(2);
    expect(h.reports).toEqual([
      { size: 1, rows: 1, computeUs: 0, instanceId: 'm-1-1' },
      { size: 2, rows: 3, computeUs: 5000, instanceId: 'm-1-1' },
    ]);
  });
});

/**
 * A scheduler with `maxBatchDelayMs: 100` whose last batch ran requests 2 and 3 (after 1 alone), so that
 * a partial batch now waits for 2 rows.
 */
async function expectingTwoRows(): Promise<Harness> {
  const h = await Harness.start({ maxBatchDelayMs: 100 });
  h.submit(1);
  h.submit(2);
  h.submit(3);
  await h.succeed(1);
  await h.succeed(2);
  return h;
}

describe('DynamicBatchScheduler: maxBatchDelayMs', () => {
  it('never delays a lone request', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 50 });
    h.submit(1);
    expect(h.batches()).toEqual([[1]]);
  });

  it('never delays the requests of a client that sends one at a time', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 50 });
    h.submit(1);
    await settle(10);
    await h.succeed(1);
    await settle(10);
    h.submit(2);
    expect(h.batches()).toEqual([[1], [2]]);
  });

  it('holds a partial batch while fewer rows wait than the last batch brought', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 100 });
    h.submit(1);
    h.submit(2);
    h.submit(3);
    h.submit(4);
    await h.succeed(1);
    await h.succeed(2);
    h.submit(5);
    expect(h.batches()).toEqual([[1], [2, 3, 4]]);
    h.submit(6);
    h.submit(7);
    expect(h.batches()).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
  });

  it('runs the partial batch when the delay, counted from its oldest request, has passed', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 100 });
    h.submit(1);
    h.submit(2);
    h.submit(3);
    h.submit(4);
    await h.succeed(1);
    await h.succeed(2);
    h.submit(5);
    await settle(60);
    h.submit(6);
    await settle(40);
    expect(h.batches()).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('counts the delay from the oldest waiting request when a later one of a higher level goes first', async () => {
    const h = await expectingTwoRows();
    h.submit(4, { priority: 3 });
    await settle(60);
    // Another shape, so that it heads a partial batch of its own.
    h.submit(5, { priority: 1, width: 3 });
    await settle(40);
    expect(h.batches()).toEqual([[1], [2, 3], [5]]);
    await h.succeed(5);
    expect(h.batches()).toEqual([[1], [2, 3], [5], [4]]);
  });

  it('runs a held partial batch as soon as a request waiting with it leaves without running', async () => {
    const h = await expectingTwoRows();
    const controller = new AbortController();
    h.submit(4);
    h.submit(5, { signal: controller.signal, width: 3 });
    await settle(10);
    controller.abort();
    await settle();
    expect(h.batches()).toEqual([[1], [2, 3], [4]]);
  });

  it('does not hold a partial batch once the queue is full: the requests it would wait for would be refused', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 100, queueSize: 2 });
    for (const tag of [1, 2, 3, 4]) h.submit(tag, { gather: true });
    await settle();
    await h.succeed(1); // a batch of 4 rows: the delay now waits for 4
    h.submit(5);
    await settle();
    expect(h.batches()).toEqual([[1, 2, 3, 4]]);
    h.submit(6);
    await settle();
    expect(h.batches()).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
  });

  it('does not hold a partial batch past the own timeout of a request in it', async () => {
    const h = await expectingTwoRows();
    const c = h.submit(4, { queueTimeoutMs: 50 });
    expect(h.batches()).toEqual([[1], [2, 3], [4]]);
    await h.succeed(4);
    expect(c.outcome?.outputs).toEqual([expectedOutput(4)]);
  });

  it('does not hold a partial batch past the response timeout of a request in it', async () => {
    const h = await expectingTwoRows();
    h.submit(4, { timeoutMs: 50 });
    expect(h.batches()).toEqual([[1], [2, 3], [4]]);
  });

  it('stops expecting batch-mates once a waiting request leaves without running', async () => {
    const h = await expectingTwoRows();
    const controller = new AbortController();
    h.submit(4, { signal: controller.signal });
    controller.abort();
    await settle();
    h.submit(5);
    expect(h.batches()).toEqual([[1], [2, 3], [5]]);
  });

  it('stops expecting batch-mates once the waiting requests are refused (scaled to zero workers)', async () => {
    const h = await expectingTwoRows();
    const d = h.submit(4);
    h.scheduler.refuseQueued(new SluiceError('SLUICE_MODEL_NO_WORKERS', 'scaled to zero workers'));
    await settle();
    h.submit(5);
    expect([d.error?.code, h.batches()]).toEqual(['SLUICE_MODEL_NO_WORKERS', [[1], [2, 3], [5]]]);
  });

  it('does not hold a batch that is already full', async () => {
    const h = await Harness.start({ maxBatchDelayMs: 100, maxBatchSize: 2 });
    h.submit(1);
    await settle(10);
    h.submit(2);
    await settle(10);
    h.submit(3);
    await h.succeed(1);
    expect(h.batches()).toEqual([[1], [2, 3]]);
  });
});

describe('DynamicBatchScheduler: priorities', () => {
  it('runs a later high-priority request before earlier low-priority ones', async () => {
    const h = await Harness.start({ maxBatchSize: 1 });
    h.submit(1);
    h.submit(2, { priority: 3 });
    h.submit(3, { priority: 3 });
    h.submit(4, { priority: 1 });
    await h.succeed(1);
    await h.succeed(4);
    await h.succeed(2);
    expect(h.batches()).toEqual([[1], [4], [2], [3]]);
  });

  it('gives a request without a priority the default level', async () => {
    const h = await Harness.start({ maxBatchSize: 1, defaultPriority: 2 });
    h.submit(1);
    h.submit(2, { priority: 3 });
    h.submit(3);
    h.submit(4, { priority: 1 });
    await h.succeed(1);
    await h.succeed(4);
    await h.succeed(3);
    expect(h.batches()).toEqual([[1], [4], [3], [2]]);
  });

  it.each([0, 4, 1.5])('refuses priority %s as SLUICE_REQUEST_INVALID', async (priority) => {
    const h = await Harness.start({ priorityLevels: 3 });
    const a = h.submit(1, { priority });
    await settle();
    expect(a.error).toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: `priority ${priority} is out of range; model \`m\` version \`1\` has priority levels 1 (highest) to 3`,
    });
  });

  it('does not run a request with an out-of-range priority', async () => {
    const h = await Harness.start({ priorityLevels: 3 });
    h.submit(1, { priority: 4 });
    await settle();
    expect(h.batches()).toEqual([]);
  });
});

describe('DynamicBatchScheduler: refusals', () => {
  it('refuses a request beyond queueSize with SLUICE_QUEUE_FULL and when to retry', async () => {
    const h = await Harness.start({ queueSize: 2 });
    h.submit(1);
    h.submit(2);
    h.submit(3);
    const d = h.submit(4);
    await settle();
    expect(d.error).toMatchObject({
      code: 'SLUICE_QUEUE_FULL',
      message: 'the job queue of model `m` version `1` is full (2 waiting); retry after 1 s or raise jobQueueSize',
      details: { retryAfterSeconds: 1, queueSize: 2 },
    });
  });

  it('does not count running requests against queueSize', async () => {
    const h = await Harness.start({ queueSize: 1 });
    h.submit(1);
    const b = h.submit(2);
    await h.succeed(1);
    await h.succeed(2);
    expect(b.outcome?.outputs).toEqual([expectedOutput(2)]);
  });

  it('takes the requests of one turn that an idle instance will run at its end, beyond queueSize', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 1 });
    const answers = [h.submit(1, { gather: true }), h.submit(2, { gather: true })];
    await settle();
    await h.succeed(1);
    await h.succeed(2);
    expect(answers.map((a) => a.error?.code ?? a.outcome?.outputs)).toEqual([[expectedOutput(1)], [expectedOutput(2)]]);
  });

  it('counts a whole batch of one turn as taken by the idle instance', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 4 });
    const answers = [1, 2, 3, 4, 5].map((tag) => h.submit(tag, { gather: true }));
    await settle();
    expect([h.batches(), answers.filter((a) => a.error !== undefined)]).toEqual([[[1, 2, 3, 4]], []]);
  });

  it('refuses a request of one turn once those the idle instances leave waiting fill the queue', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 1 });
    h.submit(1, { gather: true });
    h.submit(2, { gather: true });
    const c = h.submit(3, { gather: true });
    await settle();
    expect([h.batches(), c.error?.code]).toEqual([[[1]], 'SLUICE_QUEUE_FULL']);
  });

  it('counts an incompatible request of one turn as waiting', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 4 });
    h.submit(1, { gather: true, width: 2 });
    h.submit(2, { gather: true, width: 3 });
    const c = h.submit(3, { gather: true, width: 3 });
    await settle();
    expect([h.batches(), c.error?.code]).toEqual([[[1]], 'SLUICE_QUEUE_FULL']);
  });

  it('counts the requests of one turn as waiting when no instance is idle', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 1 });
    h.submit(1);
    h.submit(2, { gather: true });
    const c = h.submit(3, { gather: true });
    await settle();
    expect([h.batches(), c.error?.code]).toEqual([[[1]], 'SLUICE_QUEUE_FULL']);
  });

  it('runs the requests of one turn taken beyond queueSize at its end, without waiting for maxBatchDelayMs', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 4, maxBatchDelayMs: 100 });
    for (const tag of [1, 2, 3, 4]) h.submit(tag, { gather: true });
    await settle();
    await h.succeed(1); // a batch of 4 rows: the delay now waits for 4
    const answers = [5, 6, 7].map((tag) => h.submit(tag, { gather: true }));
    await settle();
    expect([h.batches(), answers.filter((a) => a.error !== undefined), h.scheduler.queueInfo()]).toEqual([
      [
        [1, 2, 3, 4],
        [5, 6, 7],
      ],
      [],
      { pending: 0, executing: 3, capacity: 1 },
    ]);
  });

  it('refuses a request of one turn that would leave more than queueSize waiting by going first', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 2 });
    h.submit(1, { gather: true });
    h.submit(2, { gather: true });
    const c = h.submit(3, { gather: true, priority: 1, width: 3 });
    await settle();
    expect([h.batches(), c.error?.code, h.scheduler.queueInfo().pending]).toEqual([[[1, 2]], 'SLUICE_QUEUE_FULL', 0]);
  });

  it('refuses a request of one turn whose rows would push the batch of those queued before it out', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 2 });
    h.submit(1, { gather: true });
    h.submit(2, { gather: true });
    const c = h.submit(3, { gather: true, priority: 1, rows: 2 });
    await settle();
    expect([h.batches(), c.error?.code, h.scheduler.queueInfo().pending]).toEqual([[[1, 2]], 'SLUICE_QUEUE_FULL', 0]);
  });

  it('holds up no ordered answer with a request refused for a full queue', async () => {
    const h = await Harness.start({ queueSize: 1, maxBatchSize: 2, preserveOrdering: true });
    h.submit(1, { gather: true });
    h.submit(2, { gather: true });
    h.submit(3, { gather: true, priority: 1, rows: 2 });
    await settle();
    await h.succeed(1);
    h.submit(4);
    await h.succeed(4);
    expect(h.answered).toEqual([3, 1, 2, 4]);
  });

  it('refuses a request when the version has no workers', async () => {
    const h = await Harness.start();
    h.pool.scale(0);
    const a = h.submit(1);
    await settle();
    expect(a.error).toMatchObject({
      code: 'SLUICE_MODEL_NO_WORKERS',
      message: 'model `m` version `1` has no workers; scale it up with PUT /models/m/1?min_worker=1',
    });
  });

  it('queues a request that arrives with no workers when the version starts one for it, and runs it there', async () => {
    const h = await Harness.start({}, { wakeFromZero: (self) => (self.pool.scale(1), true) });
    h.pool.scale(0);
    await settle();
    const a = h.submit(1);
    await h.pool.started();
    await settle();
    await h.succeed(1);
    expect({ error: a.error, output: a.outcome?.outputs[0] }).toEqual({ error: undefined, output: expectedOutput(1) });
  });

  it('does not ask for a worker for a request it refuses for another reason', async () => {
    let asked = 0;
    const h = await Harness.start({ priorityLevels: 3 }, { wakeFromZero: () => (asked++, true) });
    h.pool.scale(0);
    const a = h.submit(1, { priority: 7 });
    await settle();
    expect({ code: a.error?.code, asked }).toEqual({ code: 'SLUICE_REQUEST_INVALID', asked: 0 });
  });

  it('refuses a request whose client left before it was queued', async () => {
    const h = await Harness.start();
    const a = h.submit(1, { isCancelled: () => true });
    await settle();
    expect(a.error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the client cancelled the request before it was queued' });
  });
});

describe('DynamicBatchScheduler: deadlines', () => {
  it('answers SLUICE_RESPONSE_TIMEOUT when the response timeout passes while queued', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2, { timeoutMs: 50 });
    await settle(50);
    expect(b.error).toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: 'model `m` version `1` did not answer in time: its response timeout passed while it was queued (50 ms after it reached the queue); raise the timeout or add workers',
      details: { stage: 'queued' },
    });
  });

  it('never runs a request that expired while queued', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2, { timeoutMs: 50 });
    await settle(50);
    await h.succeed(1);
    expect(h.batches()).toEqual([[1]]);
  });

  it('never runs a request whose own timeout passed while a run held the thread, under the reject policy', async () => {
    const h = await Harness.start({ queuePolicy: 'reject' });
    h.submit(1);
    const b = h.submit(2, { queueTimeoutMs: 50 });
    // The run computes on this thread: time passes, and no timer fires until it ends.
    const now = performance.now();
    jest.spyOn(performance, 'now').mockReturnValue(now + 60);
    await h.succeed(1);
    expect([h.batches(), b.error?.code, b.error?.details]).toEqual([[[1]], 'SLUICE_RESPONSE_TIMEOUT', { stage: 'queued' }]);
  });

  it('never runs a request whose response timeout passed while a run held the thread', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2, { timeoutMs: 50 });
    const now = performance.now();
    jest.spyOn(performance, 'now').mockReturnValue(now + 60);
    await h.succeed(1);
    expect([h.batches(), b.error?.code]).toEqual([[[1]], 'SLUICE_RESPONSE_TIMEOUT']);
  });

  it('does not answer a queued request before its response timeout', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2, { timeoutMs: 50 });
    await settle(49);
    expect(b.error).toBeUndefined();
  });

  it('never asks for a timer longer than setTimeout can hold', async () => {
    const h = await Harness.start();
    const setTimeoutSpy = jest.spyOn(globalThis, 'setTimeout');
    h.submit(1, { timeoutMs: 30 * 24 * 3600 * 1000 });
    expect(setTimeoutSpy.mock.calls.map(([, ms]) => ms)).toEqual([2 ** 31 - 1]);
  });

  it('answers at once when the response timeout passes while running', async () => {
    const h = await Harness.start();
    const a = h.submit(1, { timeoutMs: 50 });
    await settle(50);
    expect(a.error).toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: 'model `m` version `1` did not answer in time: its response timeout passed while it ran (50 ms after it reached the queue); raise the timeout or add workers',
      details: { stage: 'executing' },
    });
  });

  it('drops the late result of a request that timed out while running', async () => {
    const h = await Harness.start();
    const a = h.submit(1, { timeoutMs: 50 });
    await settle(50);
    await h.succeed(1);
    expect([a.outcome, a.error?.code, h.answered]).toEqual([undefined, 'SLUICE_RESPONSE_TIMEOUT', [1]]);
  });

  it('counts a request that timed out while running until its run ends', async () => {
    const h = await Harness.start();
    h.submit(1, { timeoutMs: 50 });
    await settle(50);
    expect(h.scheduler.inflightCount()).toBe(1);
  });

  it('serves the next request on the instance once the late run ends', async () => {
    const h = await Harness.start();
    h.submit(1, { timeoutMs: 50 });
    const b = h.submit(2);
    await settle(50);
    await h.succeed(1);
    await h.succeed(2);
    expect(b.outcome).toMatchObject({ outputs: [expectedOutput(2)], instanceId: 'm-1-1' });
  });

  it('answers 504 when a request’s own timeout passes while queued under the reject policy', async () => {
    const h = await Harness.start({ queuePolicy: 'reject' });
    h.submit(1);
    const b = h.submit(2, { queueTimeoutMs: 50 });
    await settle(50);
    expect(b.error).toMatchObject({
      code: 'SLUICE_RESPONSE_TIMEOUT',
      message: 'model `m` version `1` did not answer in time: its own timeout passed while it was queued (50 ms after it reached the queue); raise the timeout or add workers',
      details: { stage: 'queued' },
    });
  });

  it('moves a request whose own timeout passed behind the others under the delay policy', async () => {
    const h = await Harness.start({ queuePolicy: 'delay', maxBatchSize: 1 });
    h.submit(1);
    h.submit(2, { queueTimeoutMs: 50 });
    h.submit(3);
    await settle(50);
    await h.succeed(1);
    await h.succeed(3);
    expect(h.batches()).toEqual([[1], [3], [2]]);
  });

  it('still answers a request moved behind the others under the delay policy', async () => {
    const h = await Harness.start({ queuePolicy: 'delay', maxBatchSize: 1 });
    h.submit(1);
    const b = h.submit(2, { queueTimeoutMs: 50 });
    h.submit(3);
    await settle(50);
    await h.succeed(1);
    await h.succeed(3);
    await h.succeed(2);
    expect(b.outcome?.outputs).toEqual([expectedOutput(2)]);
  });

  it('still expires a delayed request at its response timeout', async () => {
    const h = await Harness.start({ queuePolicy: 'delay' });
    h.submit(1);
    const b = h.submit(2, { queueTimeoutMs: 50, timeoutMs: 80 });
    await settle(80);
    expect(b.error).toMatchObject({ code: 'SLUICE_RESPONSE_TIMEOUT', details: { stage: 'queued' } });
  });
});

describe('DynamicBatchScheduler: cancellation', () => {
  it('answers a request whose client left while queued with the cancellation error', async () => {
    const h = await Harness.start();
    let gone = false;
    h.submit(1);
    const b = h.submit(2, { isCancelled: () => gone });
    gone = true;
    await h.succeed(1);
    expect(b.error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the client went away while the request was queued; it was not run' });
  });

  it('never runs a request whose client left while queued', async () => {
    const h = await Harness.start();
    let gone = false;
    h.submit(1);
    h.submit(2, { isCancelled: () => gone });
    h.submit(3);
    gone = true;
    await h.succeed(1);
    expect(h.batches()).toEqual([[1], [3]]);
  });

  it('answers a queued request at once when its signal aborts, and frees its place in the queue', async () => {
    const h = await Harness.start();
    const client = new AbortController();
    h.submit(1);
    const b = h.submit(2, { signal: client.signal });
    client.abort();
    expect(h.scheduler.inflightCount()).toBe(1);
    await settle();
    expect(b.error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the client went away while the request was queued; it was not run' });
    await h.succeed(1);
    expect(h.batches()).toEqual([[1]]);
  });

  it('never runs a queued request whose signal aborts in the turn after a run ends, when the I/O of the run’s time is read', async () => {
    const h = await Harness.start();
    const client = new AbortController();
    h.submit(1);
    const b = h.submit(2, { signal: client.signal });
    h.run(1).succeed();
    await microtasks(); // the run's answers are out; the turn's I/O, and so the abort, comes next
    client.abort();
    await settle();
    expect([h.batches(), b.error?.code]).toEqual([[[1]], 'SLUICE_REQUEST_INVALID']);
  });

  it('takes the requests that arrive in the turn after a run ends into the next batch', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    h.run(1).succeed();
    await microtasks();
    h.submit(3);
    await settle();
    expect(h.batches()).toEqual([[1], [2, 3]]);
  });

  it('lets a running request finish when its signal aborts', async () => {
    const h = await Harness.start();
    const client = new AbortController();
    const a = h.submit(1, { signal: client.signal });
    client.abort();
    await h.succeed(1);
    expect(a.outcome?.outputs).toEqual([expectedOutput(1)]);
  });

  it('refuses a request whose signal aborted before it was queued', async () => {
    const h = await Harness.start();
    const a = h.submit(1, { signal: AbortSignal.abort() });
    await settle();
    expect(a.error).toMatchObject({ code: 'SLUICE_REQUEST_INVALID', message: 'the client cancelled the request before it was queued' });
  });

  it('stops counting a request whose client left', async () => {
    const h = await Harness.start();
    let gone = false;
    h.submit(1);
    h.submit(2, { isCancelled: () => gone });
    gone = true;
    await h.succeed(1);
    expect(h.scheduler.inflightCount()).toBe(0);
  });
});

describe('DynamicBatchScheduler: preserveOrdering', () => {
  it('answers in arrival order when a later batch finishes first', async () => {
    const h = await Harness.start({ preserveOrdering: true }, { instances: 2 });
    h.submit(1);
    h.submit(2);
    await h.succeed(2);
    const early = [...h.answered];
    await h.succeed(1);
    expect([early, h.answered]).toEqual([[], [1, 2]]);
  });

  it('answers as batches finish without it', async () => {
    const h = await Harness.start({ preserveOrdering: false }, { instances: 2 });
    h.submit(1);
    h.submit(2);
    await h.succeed(2);
    await h.succeed(1);
    expect(h.answered).toEqual([2, 1]);
  });

  it('never runs a request that expired while queued behind an unanswered one', async () => {
    const h = await Harness.start({ preserveOrdering: true }, { instances: 2 });
    h.submit(1);
    h.submit(2);
    h.submit(3, { timeoutMs: 50 });
    await settle(50);
    h.submit(4);
    await h.succeed(2);
    expect([h.batches(), h.scheduler.inflightCount()]).toEqual([[[1], [2], [4]], 2]);
  });

  it('delivers the timeout of a request that expired behind an unanswered one after the earlier answers', async () => {
    const h = await Harness.start({ preserveOrdering: true }, { instances: 2 });
    h.submit(1);
    h.submit(2);
    const c = h.submit(3, { timeoutMs: 50 });
    await settle(50);
    await h.succeed(2);
    await h.succeed(1);
    expect([h.answered, c.error?.code]).toEqual([[1, 2, 3], 'SLUICE_RESPONSE_TIMEOUT']);
  });

  it('never runs a refused request waiting behind an unanswered one', async () => {
    const h = await Harness.start({ preserveOrdering: true }, { instances: 2 });
    h.submit(1);
    h.submit(2);
    h.submit(3);
    h.scheduler.refuseQueued(new SluiceError('SLUICE_MODEL_NO_WORKERS', 'scaled to zero workers'));
    h.submit(4);
    await h.succeed(2);
    expect([h.batches(), h.scheduler.inflightCount()]).toEqual([[[1], [2], [4]], 2]);
  });

  it('keeps the count exact when a client left while its request waited behind an unanswered one', async () => {
    const h = await Harness.start({ preserveOrdering: true }, { instances: 2 });
    let gone = false;
    h.submit(1);
    h.submit(2);
    h.submit(3, { isCancelled: () => gone });
    h.submit(4);
    gone = true;
    await h.succeed(2);
    h.submit(5);
    await h.succeed(4);
    expect([h.batches(), h.scheduler.inflightCount()]).toEqual([[[1], [2], [4], [5]], 2]);
  });
});

describe('DynamicBatchScheduler: instance failures', () => {
  it('retries the batch of a failed instance on another instance', async () => {
    const h = await Harness.start({}, { instances: 2 });
    h.submit(1);
    await h.crash(1);
    expect(h.model.runs.map((r) => [r.instance.serial, r.batch.items.map((i) => tagOf(i.inputs[0]))])).toEqual([
      [1, [1]],
      [2, [1]],
    ]);
  });

  it('answers a retried request from the instance that ran it', async () => {
    const h = await Harness.start({}, { instances: 2 });
    const a = h.submit(1);
    await h.crash(1);
    await h.succeed(1);
    expect(a.outcome).toMatchObject({ outputs: [expectedOutput(1)], instanceId: 'm-1-2' });
  });

  it('answers SLUICE_INSTANCE_FAILED when the retry fails too', async () => {
    const h = await Harness.start({}, { instances: 2 });
    const a = h.submit(1);
    await h.crash(1);
    await h.crash(1);
    expect(a.error).toMatchObject({ code: 'SLUICE_INSTANCE_FAILED', message: 'instance m-1-2 failed: device lost' });
  });

  it('retries a request only once', async () => {
    const h = await Harness.start({}, { instances: 3 });
    h.submit(1);
    await h.crash(1);
    await h.crash(1);
    expect(h.batches()).toEqual([[1], [1]]);
  });

  it('replaces a failed instance after the backoff', async () => {
    const h = await Harness.start({}, { instances: 2 });
    h.submit(1);
    await h.crash(1);
    await settle(100);
    expect([h.pool.activeCount, h.model.created.length]).toEqual([2, 3]);
  });

  it('retries on the replacement when the failed instance was the only one', async () => {
    const h = await Harness.start();
    h.submit(1);
    await h.crash(1);
    await settle(100);
    expect(h.model.runs.map((r) => r.instance.serial)).toEqual([1, 2]);
  });

  it('retries a batch whole and in order when an incompatible request sat between its requests', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2, { width: 2 });
    h.submit(3, { width: 3 });
    h.submit(4, { width: 2 });
    await h.succeed(1);
    await h.crash(2);
    await settle(100);
    expect([h.batches(), h.scheduler.queueInfo().pending]).toEqual([[[1], [2, 4], [2, 4]], 1]);
  });

  it('answers every request after a retry that had an incompatible request between its requests', async () => {
    const h = await Harness.start();
    const answers = [h.submit(1), h.submit(2, { width: 2 }), h.submit(3, { width: 3 }), h.submit(4, { width: 2 })];
    await h.succeed(1);
    await h.crash(2);
    await settle(100);
    await h.succeed(2);
    await h.succeed(3);
    expect(answers.map((a) => a.outcome?.outputs)).toEqual(answers.map((a) => [expectedOutput(a.tag, a.rows, a.width)]));
  });

  it('answers each request of a batch with its own result when some failed', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    const c = h.submit(3);
    await h.succeed(1);
    const failure = new SluiceError('SLUICE_INFERENCE_FAILED', 'inference failed: NaN in row 0');
    h.run(2).resolve([{ ok: false, error: failure }, { ok: true, outputs: [expectedOutput(3)] }]);
    await settle();
    expect([b.error, c.outcome?.outputs]).toEqual([failure, [expectedOutput(3)]]);
  });

  it('answers SLUICE_INTERNAL when the executor returns no result for a request', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    h.run(1).resolve([]);
    await settle();
    expect(a.error).toMatchObject({ code: 'SLUICE_INTERNAL', message: 'the executor returned no result for a request of the batch' });
  });

  it('answers the batch of an instance that fails after a scale to zero at once, since none will retry it', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    h.pool.scale(0);
    await h.crash(1);
    expect([a.error, h.scheduler.queueInfo()]).toEqual([
      expect.objectContaining({ code: 'SLUICE_INSTANCE_FAILED', message: 'instance m-1-1 failed: device lost' }),
      { pending: 0, executing: 0, capacity: 16 },
    ]);
  });

  it('takes requests while the only instance is being replaced, and runs them on the replacement', async () => {
    const h = await Harness.start();
    h.submit(1);
    await h.crash(1);
    const b = h.submit(2);
    await settle(100);
    await h.succeed(2);
    expect([h.batches(), b.outcome?.outputs]).toEqual([[[1], [1, 2]], [expectedOutput(2)]]);
  });
});

describe('DynamicBatchScheduler: refuseQueued', () => {
  it('answers every queued request with the error', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    const c = h.submit(3);
    const error = new SluiceError('SLUICE_MODEL_NO_WORKERS', 'scaled to zero workers');
    h.scheduler.refuseQueued(error);
    await settle();
    expect([b.error, c.error]).toEqual([error, error]);
  });

  it('lets the running batch finish', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    h.submit(2);
    h.scheduler.refuseQueued(new SluiceError('SLUICE_MODEL_NO_WORKERS', 'scaled to zero workers'));
    await h.succeed(1);
    expect([a.outcome?.outputs, h.batches()]).toEqual([[expectedOutput(1)], [[1]]]);
  });
});

describe('DynamicBatchScheduler: drain', () => {
  it('refuses new requests while draining', async () => {
    const h = await Harness.start();
    h.submit(1);
    void h.scheduler.drain(1000);
    const b = h.submit(2);
    await settle();
    expect(b.error).toMatchObject({
      code: 'SLUICE_MODEL_UNLOADING',
      message: 'model `m` version `1` is being unloaded; send the request to another version or retry later',
    });
  });

  it('still runs the requests queued before the drain', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    void h.scheduler.drain(1000);
    await h.succeed(1);
    expect(h.batches()).toEqual([[1], [2]]);
  });

  it('waits while a request is still queued or running', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    let drained: boolean | undefined;
    void h.scheduler.drain(1000).then((d) => (drained = d));
    await h.succeed(1);
    expect(drained).toBeUndefined();
  });

  it('resolves true once every queued and running request is answered', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    let drained: boolean | undefined;
    void h.scheduler.drain(1000).then((d) => (drained = d));
    await h.succeed(1);
    await h.succeed(2);
    expect(drained).toBe(true);
  });

  it('resolves true at once when nothing is in flight', async () => {
    const h = await Harness.start();
    await expect(h.scheduler.drain(1000)).resolves.toBe(true);
  });

  it('resolves false when the timeout passes first', async () => {
    const h = await Harness.start();
    h.submit(1);
    let drained: boolean | undefined;
    void h.scheduler.drain(100).then((d) => (drained = d));
    await settle(100);
    expect(drained).toBe(false);
  });

  it('resolves true when the client of the last queued request left', async () => {
    const h = await Harness.start();
    let gone = false;
    h.submit(1);
    h.submit(2, { isCancelled: () => gone });
    let drained: boolean | undefined;
    void h.scheduler.drain(1000).then((d) => (drained = d));
    gone = true;
    await h.succeed(1);
    expect(drained).toBe(true);
  });
});

describe('DynamicBatchScheduler: stop', () => {
  it('answers queued requests with SLUICE_MODEL_UNLOADING', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    void h.scheduler.stop();
    await settle();
    expect(b.error).toMatchObject({ code: 'SLUICE_MODEL_UNLOADING', message: 'model `m` version `1` is being unloaded; the request was not run' });
  });

  it('answers queued requests with the reason it was given', async () => {
    const h = await Harness.start();
    h.submit(1);
    const b = h.submit(2);
    const reason = new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down');
    void h.scheduler.stop(reason);
    await settle();
    expect(b.error).toBe(reason);
  });

  it('waits for the running batch', async () => {
    const h = await Harness.start();
    h.submit(1);
    let stopped = false;
    void h.scheduler.stop().then(() => (stopped = true));
    await settle();
    const before = stopped;
    await h.succeed(1);
    expect([before, stopped]).toEqual([false, true]);
  });

  it('answers the running batch with its results', async () => {
    const h = await Harness.start();
    const a = h.submit(1);
    void h.scheduler.stop();
    await h.succeed(1);
    expect(a.outcome?.outputs).toEqual([expectedOutput(1)]);
  });

  it('does not retry the batch of an instance that fails while stopping', async () => {
    const h = await Harness.start({}, { instances: 2 });
    const a = h.submit(1);
    void h.scheduler.stop();
    await h.crash(1);
    expect([a.error?.code, h.batches()]).toEqual(['SLUICE_INSTANCE_FAILED', [[1]]]);
  });

  it('refuses new requests once stopped', async () => {
    const h = await Harness.start();
    await h.scheduler.stop();
    const a = h.submit(1);
    await settle();
    expect(a.error?.code).toBe('SLUICE_MODEL_UNLOADING');
  });
});

describe('DynamicBatchScheduler: figures', () => {
  it('gives the mean wait of the requests that started running as the queue time', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    await settle(30);
    await h.succeed(1);
    expect(h.scheduler.takeQueueTimeMs()).toBe(15);
  });

  it('starts a new window at every queue-time look', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    await settle(30);
    await h.succeed(1);
    h.scheduler.takeQueueTimeMs();
    expect(h.scheduler.takeQueueTimeMs()).toBe(0);
  });

  it('gives the age of the oldest waiting request when that is longer', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    await settle(40);
    expect(h.scheduler.takeQueueTimeMs()).toBe(40);
  });

  it('keeps the sizes of recent batches, oldest first', async () => {
    const h = await Harness.start();
    for (let tag = 1; tag <= 4; tag++) h.submit(tag);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.scheduler.recentBatchSizes()).toEqual([1, 3]);
  });

  it('keeps the sizes of the latest 32 batches', async () => {
    const h = await Harness.start();
    h.submit(1);
    h.submit(2);
    h.submit(3);
    await h.succeed(1);
    for (let tag = 4; tag <= 34; tag++) {
      h.submit(tag);
      await h.succeed(tag === 4 ? 2 : tag - 1);
    }
    await h.succeed(34);
    expect(h.scheduler.recentBatchSizes()).toEqual([2, ...Array.from({ length: 31 }, () => 1)]);
  });

  it('shows queued, running and capacity', async () => {
    const h = await Harness.start({ queueSize: 5 });
    h.submit(1, { rows: 2 });
    h.submit(2);
    expect(h.scheduler.queueInfo()).toEqual({ pending: 1, executing: 1, capacity: 5 });
  });
});

describe('DynamicBatchScheduler: a burst of twice the queue size', () => {
  it('answers every request once, with its own rows or a clean SLUICE_QUEUE_FULL', async () => {
    const h = await Harness.start({ queueSize: 8, maxBatchSize: 4 }, { instances: 2 });
    const answers = Array.from({ length: 16 }, (_, i) => h.submit(i + 1, { width: 2 + (i % 2), rows: 1 + (i % 3) }));
    for (let done = 0; done < h.model.runs.length; done++) {
      h.model.runs[done]!.succeed();
      await settle();
    }
    const refused = answers.filter((a) => a.error !== undefined);
    expect({
      answered: [...h.answered].sort((x, y) => x - y),
      refused: refused.map((a) => [a.tag, a.error?.code]),
      outputs: answers.filter((a) => a.error === undefined).map((a) => [a.tag, a.outcome?.outputs]),
      inflight: h.scheduler.inflightCount(),
    }).toEqual({
      answered: answers.map((a) => a.tag),
      refused: [11, 12, 13, 14, 15, 16].map((tag) => [tag, 'SLUICE_QUEUE_FULL']),
      outputs: answers.slice(0, 10).map((a) => [a.tag, [expectedOutput(a.tag, a.rows, a.width)]]),
      inflight: 0,
    });
  });
});
