import { RETRY_AFTER_SECONDS, SluiceError, isSluiceError } from '../sdk/errors/index.js';
import { MAX_TIMER_DELAY_MS } from '../timers/long-timeout.js';
import type { Batch, JobResult } from '../sdk/executor/executor.js';
import { promiseOf } from '../sdk/promises/promise-of.js';
import { BatchDelay } from './batch-delay.js';
import { compatibleRows, formBatch, takenByBatches } from './batch-former.js';
import { batchPlacement } from './batch-key.js';
import type { BatchTracing, QueuedTrace } from './batch-tracing.js';
import type { BatchingPolicy } from './batching-policy.js';
import type { InstancePool, PooledInstance } from './instance-pool.js';
import { OrderedAnswers } from './ordered-answers.js';
import { Payload } from './payload.js';
import { PriorityQueues } from './priority-queues.js';
import type { InferenceJob, InferenceOutcome, Scheduler } from './scheduler.js';

/** What the scheduler reports about each batch it ran. */
export interface BatchReport {
  readonly size: number;
  readonly rows: number;
  readonly computeUs: number;
  readonly instanceId: string;
}

/** Everything a scheduler is built from. */
export interface DynamicBatchSchedulerOptions {
  /** `name` and `version` of the model, for messages. */
  readonly model: string;
  readonly version: string;
  readonly policy: BatchingPolicy;
  /** False when the model's first dimensions are not all variable: every request then runs alone. */
  readonly batchable: boolean;
  readonly pool: InstancePool;
  /**
   * Called when a request arrives while the version asks for no workers: true when it now asks for one
   * (autoscaling from zero), and the request waits for it; otherwise the request is refused with
   * `SLUICE_MODEL_NO_WORKERS`.
   */
  readonly wakeFromZero?: () => boolean;
  /** Called after every batch (metrics). */
  readonly onBatch?: (report: BatchReport) => void;
  /** Reports queue waits and batches to tracing; absent when tracing is off. */
  readonly tracing?: BatchTracing;
}

/** How many recent batch sizes are kept for the management API. */
const RECENT_BATCHES = 32;
/** Weight of the newest batch in the moving mean of requests per batch. */
const BATCH_MEAN_WEIGHT = 0.2;
/** Above this mean, requests arrive together and a new one waits for the end of the event-loop turn. */
const GATHER_ABOVE_MEAN_BATCH = 1.5;

/**
 * The dynamic batching scheduler of one model version.
 *
 * Eager by default: when an instance is idle the queued requests run at once, so a lone request never
 * waits; while instances are busy, requests pile up and the next batch takes as many compatible ones as
 * fit (`maxBatchSize`, cut to a preferred size when one is reached). `maxBatchDelayMs` adds an optional
 * wait for fuller batches, counted from the oldest request's arrival and cut short when requests stop
 * coming. Priorities, per-request deadlines with a queue policy, client cancellation and ordered answers
 * are handled here; every request gets exactly one answer, its own.
 */
export class DynamicBatchScheduler implements Scheduler {
  private readonly queues: PriorityQueues;
  /**
   * The batches being run, each the payloads it took. An array of at most one entry per instance, not a
   * set of payloads: a set changed by every request replaces its hash table every few requests, and V8
   * links each replaced table to its successor; once one such table had outlived two young collections,
   * the dead chain kept every later table, and the payloads still listed in each, alive until the next
   * full collection. In some runs that promoted nearly every request to the old generation.
   */
  private readonly running: (readonly Payload[])[] = [];
  private readonly delay = new BatchDelay();
  private readonly ordered: OrderedAnswers | undefined;
  private readonly recent: number[] = [];
  private sequence = 0;
  private stopping = false;
  private executing = 0;
  private windowQueueMs = 0;
  private windowDispatched = 0;
  private pumpTimer: NodeJS.Timeout | undefined;
  private gathering = false;
  /** A moving mean of the requests per batch: above one, requests are arriving together. */
  private recentBatchMean = 1;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private deadlineAt = Infinity;
  private readonly idleWaiters = new Set<() => void>();
  /**
   * False when every request runs alone (`maxBatchSize` 1, or a model that cannot batch): requests then
   * get no batch key and a partial batch never waits for batch-mates, whatever `maxBatchDelayMs` says.
   */
  private readonly batches: boolean;

  constructor(private readonly options: DynamicBatchSchedulerOptions) {
    this.queues = new PriorityQueues(options.policy.priorityLevels);
    this.ordered = options.policy.preserveOrdering ? new OrderedAnswers() : undefined;
    this.batches = options.batchable && options.policy.maxBatchSize > 1;
  }

  private get label(): string {
    return `model \`${this.options.model}\` version \`${this.options.version}\``;
  }

  enqueue(job: InferenceJob): Promise<InferenceOutcome> {
    const refusal = this.refusal(job);
    if (refusal) return Promise.reject(refusal);
    const { rows, key } = batchPlacement(job.inputs, job.outputNames, this.batches);
    return new Promise<InferenceOutcome>((resolve, reject) => {
      const { policy } = this.options;
      const sequence = this.sequence;
      const { budget } = job;
      const priority = budget.priority ?? policy.defaultPriority;
      const { signal } = budget;
      const onAbort = (): void => {
        if (payload.state !== 'queued') return;
        this.cancel(payload);
        // The expectation of batch-mates is gone with it: a partial batch waiting for them runs now.
        this.afterWork();
      };
      const settled = <T>(deliver: (value: T) => void): ((value: T) => void) => {
        if (signal === undefined) return deliver;
        return (value) => {
          signal.removeEventListener('abort', onAbort);
          deliver(value);
        };
      };
      const payload = new Payload(job, sequence, priority, rows, key, this.delivery(sequence, settled(resolve)), this.delivery(sequence, settled(reject)));
      this.queues.push(payload);
      // Only requests that idle instances take at the end of this turn may go beyond the queue's size. Counted
      // with this request in its place: one that goes before them (a higher level, more rows) can push them
      // back to waiting.
      if (this.queues.liveCount > policy.queueSize && this.waitingCount() > policy.queueSize) {
        this.queues.withdraw(payload);
        reject(this.queueFull());
        return;
      }
      this.sequence += 1;
      signal?.addEventListener('abort', onAbort, { once: true });
      if (job.traceContext !== undefined) payload.trace = this.options.tracing?.enqueued(job.traceContext);
      this.watchDeadline(budget.due);
      // Under load, let the requests that arrive in this turn of the event loop share the batch: run at
      // once, the first of them would run alone while the rest wait for it, batch after batch.
      if (job.gather === true || this.recentBatchMean > GATHER_ABOVE_MEAN_BATCH) this.pumpSoon();
      else this.pump();
    });
  }

  inflightCount(): number {
    return this.queues.liveCount + this.executing;
  }

  /** Queue figures for the management API. */
  queueInfo(): { pending: number; executing: number; capacity: number } {
    return { pending: this.queues.liveCount, executing: this.executing, capacity: this.options.policy.queueSize };
  }

  /** Sizes (requests) of the most recent batches, oldest first. */
  recentBatchSizes(): number[] {
    return [...this.recent];
  }

  /**
   * How long requests waited since the last call, in milliseconds: the mean wait of the requests that
   * started running, or the age of the oldest one still waiting when that is longer (a stuck queue).
   * Starts a new window.
   */
  takeQueueTimeMs(): number {
    const mean = this.windowDispatched === 0 ? 0 : this.windowQueueMs / this.windowDispatched;
    this.windowQueueMs = 0;
    this.windowDispatched = 0;
    const oldest = this.queues.oldestArrival();
    return Math.max(mean, oldest === Infinity ? 0 : performance.now() - oldest);
  }

  /**
   * Answers every queued request with `error` (the version was scaled to zero workers). They leave without
   * running, so the last batch no longer predicts what is coming: the next partial batch does not wait for them.
   */
  refuseQueued(error: SluiceError): void {
    const refused = this.queues.drain();
    if (refused.length > 0) this.delay.forget();
    for (const payload of refused) payload.fail(error);
    this.afterWork();
  }

  /** Called by the pool when an instance became available. */
  instanceAvailable(): void {
    this.pump();
  }

  /** Waits until every accepted job is answered or `timeoutMs` passes, refusing new jobs. True when drained. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.stopping = true;
    if (this.inflightCount() === 0) return true;
    return new Promise<boolean>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.idleWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.idleWaiters.add(done);
    });
  }

  async stop(reason?: SluiceError): Promise<void> {
    this.stopping = true;
    clearTimeout(this.pumpTimer);
    const error = reason ?? new SluiceError('SLUICE_MODEL_UNLOADING', `${this.label} is being unloaded; the request was not run`);
    for (const payload of this.queues.drain()) payload.fail(error);
    if (this.executing > 0) await new Promise<void>((resolve) => this.idleWaiters.add(resolve));
    clearTimeout(this.deadlineTimer);
  }

  private refusal(job: InferenceJob): SluiceError | undefined {
    const { policy } = this.options;
    if (this.stopping) return new SluiceError('SLUICE_MODEL_UNLOADING', `${this.label} is being unloaded; send the request to another version or retry later`);
    const { priority } = job.budget;
    if (priority !== undefined && (!Number.isInteger(priority) || priority < 1 || priority > policy.priorityLevels)) {
      return new SluiceError(
        'SLUICE_REQUEST_INVALID',
        `priority ${String(priority)} is out of range; ${this.label} has priority levels 1 (highest) to ${policy.priorityLevels}`,
      );
    }
    // A full queue refuses at once unless idle instances take this turn's requests at its end; then
    // `enqueue` decides once the request is in the queue, where it would wait.
    if (this.queues.liveCount >= policy.queueSize && !(this.gathering && this.options.pool.idleCount > 0)) return this.queueFull();
    if (job.budget.isCancelled() || job.budget.signal?.aborted === true) return new SluiceError('SLUICE_REQUEST_INVALID', 'the client cancelled the request before it was queued');
    // Zero asked for, not zero running: while a failed instance is being replaced, requests wait for it.
    // Asked last, so that a request refused for another reason does not start a worker.
    if (this.options.pool.targetCount === 0 && this.options.wakeFromZero?.() !== true) {
      return new SluiceError(
        'SLUICE_MODEL_NO_WORKERS',
        `${this.label} has no workers; scale it up with PUT /models/${this.options.model}/${this.options.version}?min_worker=1`,
      );
    }
    return undefined;
  }

  private queueFull(): SluiceError {
    const { queueSize } = this.options.policy;
    return new SluiceError(
      'SLUICE_QUEUE_FULL',
      `the job queue of ${this.label} is full (${queueSize} waiting); retry after ${RETRY_AFTER_SECONDS} s or raise jobQueueSize`,
      { retryAfterSeconds: RETRY_AFTER_SECONDS, queueSize },
    );
  }

  /**
   * Queued requests that will still wait once this turn of the event loop ends. While the scheduler
   * gathers the turn's requests, an idle instance has not taken them yet, but will when the turn ends
   * (the pump runs them then, batch delay or not): those do not wait and do not count against
   * `jobQueueSize`. Only asked once the queue is beyond its size.
   */
  private waitingCount(): number {
    const queued = this.queues.liveCount;
    if (!this.gathering) return queued;
    const idle = this.options.pool.idleCount;
    if (idle === 0) return queued;
    const { policy } = this.options;
    return queued - takenByBatches(this.queues, { maxRows: policy.maxBatchSize, preferredSizes: policy.preferredBatchSizes }, idle);
  }

  /** Starts batches while an instance is idle and requests wait. */
  private pump(): void {
    const { policy } = this.options;
    // A run blocks this thread, so a deadline can pass with its timer not yet fired: the requests it
    // expired must not join the next batch.
    if (this.deadlineAt <= performance.now()) this.checkDeadlines();
    for (;;) {
      if (this.queues.liveCount === 0) return;
      const instance = this.options.pool.idle();
      if (instance === undefined) return;
      // A full queue never waits for a fuller batch: the requests it would wait for are refused, and those
      // idle instances took beyond its size in this turn must not wait either. Nor does a request that
      // runs alone: with batching off it goes straight to the instance, as a lone request does with it on.
      if (this.batches && policy.maxBatchDelayMs > 0 && this.queues.liveCount < policy.queueSize) {
        const head = this.queues.first();
        if (head === undefined) return;
        const rows = compatibleRows(this.queues, head, policy.maxBatchSize);
        const now = performance.now();
        // Counted from the oldest request's arrival, which may wait at a lower level than the head: counted
        // from the head's, each request of a higher level arriving would put the batch off by another delay.
        const wait = rows < policy.maxBatchSize ? this.delay.waitMs(now, this.queues.oldestArrival(), policy.maxBatchDelayMs, rows) : 0;
        // Never past the earliest deadline watched (a queued or running request's): a request would expire
        // waiting for batch-mates, and its expiry forms no smaller batch to lower the expectation.
        if (wait > 0 && now + wait < this.deadlineAt) {
          this.pumpAfter(wait);
          return;
        }
      }
      const picked = formBatch(
        this.queues,
        { maxRows: policy.maxBatchSize, preferredSizes: policy.preferredBatchSizes },
        (p) => p.job.budget.isCancelled(),
        (p) => {
          this.cancel(p);
        },
      );
      if (picked.length === 0) return;
      this.dispatch(instance, picked);
    }
  }

  /** Pumps once the current turn of the event loop is over (every job submitted in it is queued by then). */
  private pumpSoon(): void {
    if (this.gathering) return;
    this.gathering = true;
    setImmediate(() => {
      this.gathering = false;
      this.pump();
      // The pump may have dropped the last requests, whose clients left.
      this.wakeIfIdle();
    });
  }

  private pumpAfter(waitMs: number): void {
    if (this.pumpTimer !== undefined) return;
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = undefined;
      this.pump();
    }, waitMs);
  }

  private dispatch(instance: PooledInstance, picked: Payload[]): void {
    const execution = instance.execution;
    if (execution === undefined) return;
    for (const payload of picked) {
      payload.advance('batched');
      this.queues.left();
      payload.advance('executing');
      this.windowQueueMs += payload.startedAt - payload.arrival;
      this.windowDispatched += 1;
    }
    instance.startBatch();
    this.running.push(picked);
    this.executing += picked.length;
    const [head] = picked;
    const batch: Batch = {
      items: picked.map((p) => ({ inputs: p.job.inputs, rows: p.rows })),
      ...(head?.job.outputNames ? { outputNames: head.job.outputNames } : {}),
    };
    const started = performance.now();
    promiseOf(() => this.traced(picked, instance, () => execution.run(batch))).then(
      (results) => {
        this.finish(instance, picked, started, results);
      },
      (error: unknown) => {
        this.instanceFailed(instance, picked, error);
      },
    );
  }

  /** Runs the batch inside a batch span when some of its requests are traced. */
  private traced(picked: readonly Payload[], instance: PooledInstance, run: () => Promise<readonly JobResult[]>): Promise<readonly JobResult[]> {
    const tracing = this.options.tracing;
    if (tracing === undefined) return run();
    const traces: QueuedTrace[] = [];
    let rows = 0;
    for (const payload of picked) {
      rows += payload.rows;
      if (payload.trace !== undefined) traces.push(payload.trace);
    }
    if (traces.length === 0) return run();
    return tracing.runBatch(traces, { size: picked.length, rows, instanceId: instance.id, device: instance.execution?.device ?? 'unknown' }, run);
  }

  private finish(instance: PooledInstance, picked: readonly Payload[], started: number, results: readonly JobResult[]): void {
    const computeUs = (performance.now() - started) * 1000;
    const rows = picked.reduce((sum, p) => sum + p.rows, 0);
    this.stopRunning(picked);
    picked.forEach((payload, i) => {
      const result = results[i];
      if (result?.ok) {
        payload.answer({
          outputs: result.outputs,
          queueUs: (payload.startedAt - payload.arrival) * 1000,
          computeUs,
          instanceId: instance.id,
          batchSize: picked.length,
        });
      } else {
        payload.fail(result?.error ?? new SluiceError('SLUICE_INTERNAL', 'the executor returned no result for a request of the batch'));
      }
    });
    this.delay.batchFinished(performance.now(), rows);
    this.recentBatchMean += (picked.length - this.recentBatchMean) * BATCH_MEAN_WEIGHT;
    this.recent.push(picked.length);
    if (this.recent.length > RECENT_BATCHES) this.recent.shift();
    this.executing -= picked.length;
    this.options.pool.finished(instance, picked.length);
    this.options.onBatch?.({ size: picked.length, rows, computeUs, instanceId: instance.id });
    this.afterWork();
  }

  /** Forgets batch `picked` as running: it finished or its instance failed. */
  private stopRunning(picked: readonly Payload[]): void {
    const at = this.running.indexOf(picked);
    if (at >= 0) this.running.splice(at, 1);
  }

  /** A fatal error: the instance goes, its batch is retried once on another instance. */
  private instanceFailed(instance: PooledInstance, picked: readonly Payload[], error: unknown): void {
    const failure = isSluiceError(error)
      ? error
      : new SluiceError('SLUICE_INSTANCE_FAILED', `instance ${instance.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.executing -= picked.length;
    this.options.pool.failed(instance, failure);
    // Put back last to first, so that the retried requests keep their order at the front of the queue.
    // Scaled to zero, no instance will come to retry them on.
    this.stopRunning(picked);
    const retry = !this.stopping && this.options.pool.targetCount > 0;
    for (const payload of [...picked].reverse()) {
      if (retry && payload.state === 'executing' && !payload.retried) {
        payload.requeue();
        this.queues.pushFront(payload);
      } else {
        payload.fail(failure);
      }
    }
    this.afterWork();
  }

  /**
   * Starts what can run once this turn's I/O has been read, and wakes `drain`/`stop` when nothing is left.
   * A CPU run holds this thread, so what arrived during it (a client that left, a gRPC call cancelled, new
   * requests) is only read in the turn after: the next batch is formed then, so that it drops the requests
   * no longer wanted instead of running them, and takes the ones that arrived.
   */
  private afterWork(): void {
    // Nothing queued, nothing to form: a request arriving later pumps on its own. Skipping the turn's-end
    // pump spares every lone request an event-loop callback after its batch.
    if (this.queues.liveCount > 0) this.pumpSoon();
    this.wakeIfIdle();
  }

  private wakeIfIdle(): void {
    if (this.inflightCount() === 0) for (const waiter of [...this.idleWaiters]) waiter();
  }

  private cancel(payload: Payload): void {
    this.queues.left();
    this.delay.forget();
    payload.fail(new SluiceError('SLUICE_REQUEST_INVALID', 'the client went away while the request was queued; it was not run'), 'cancelled');
  }

  /**
   * How the answer to request `sequence` reaches its caller: at once, or in arrival order with
   * `preserveOrdering`. Only the delivery waits; the payload changes state when it is answered, so that a
   * request answered early (expired, cancelled, refused) leaves the queue at once and never runs.
   */
  private delivery<T>(sequence: number, deliver: (value: T) => void): (value: T) => void {
    const ordered = this.ordered;
    if (ordered === undefined) return deliver;
    return (value) => {
      ordered.release(sequence, () => {
        deliver(value);
      });
    };
  }

  private watchDeadline(at: number): void {
    if (at >= this.deadlineAt) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineAt = at;
    // Longer delays than a timer can hold would fire at once; the early check re-arms for what is left.
    this.deadlineTimer = setTimeout(
      () => {
        this.checkDeadlines();
      },
      Math.min(MAX_TIMER_DELAY_MS, Math.max(0, at - performance.now())),
    );
  }

  /** Expires what is due, applies the queue policy, and arms the timer for the next deadline. */
  private checkDeadlines(): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineAt = Infinity;
    this.deadlineTimer = undefined;
    const now = performance.now();
    let next = Infinity;
    for (const payload of [...this.queues.inOrder()]) {
      const { deadline, timeoutAt } = payload.job.budget;
      if (deadline <= now) {
        this.expire(payload, 'queued', 'its response timeout passed while it was queued');
        continue;
      }
      if (timeoutAt <= now && !payload.delayed) {
        if (this.options.policy.queuePolicy === 'reject') {
          this.expire(payload, 'queued', 'its own timeout passed while it was queued');
          continue;
        }
        this.queues.demote(payload);
      }
      next = Math.min(next, deadline, payload.delayed ? Infinity : timeoutAt);
    }
    for (const batch of this.running) {
      for (const payload of batch) {
        if (payload.state !== 'executing') continue;
        const { deadline } = payload.job.budget;
        if (deadline <= now) this.expire(payload, 'executing', 'its response timeout passed while it ran');
        else next = Math.min(next, deadline);
      }
    }
    if (next < Infinity) this.watchDeadline(next);
    if (this.inflightCount() === 0) for (const waiter of [...this.idleWaiters]) waiter();
  }

  private expire(payload: Payload, stage: 'queued' | 'executing', why: string): void {
    if (stage === 'queued') {
      this.queues.left();
      this.delay.forget();
    }
    // Counted from the queue, not from the request's start: time spent before (a handler's preprocess) is not the queue's.
    const waitedMs = Math.round(performance.now() - payload.arrival);
    payload.fail(
      new SluiceError('SLUICE_RESPONSE_TIMEOUT', `${this.label} did not answer in time: ${why} (${waitedMs} ms after it reached the queue); raise the timeout or add workers`, {
        stage,
      }),
      'expired',
    );
  }
}
