import { SluiceError, isSluiceError } from '../common/errors/index.js';
import type { JobResult } from '../executors/executor.js';
import { ModelInstance, type InstanceInfo } from './model-instance.js';
import { Payload } from './payload.js';
import { PayloadQueue } from './payload-queue.js';
import type { InferenceJob, InferenceOutcome, Scheduler } from './scheduler.js';

/** Runs a batch of jobs on an instance; one result per job, in order; never rejects (if it does, every job of the batch fails). */
export type RunBatch = (instance: ModelInstance, jobs: readonly InferenceJob[]) => Promise<readonly JobResult[]>;

/** Settings of a {@link FifoScheduler}. */
export interface FifoSchedulerOptions {
  /** `name` and `version` of the model, for error messages. */
  readonly model: string;
  readonly version: string;
  /** Jobs that may wait; one more is refused with `SLUICE_QUEUE_FULL`. */
  readonly queueSize: number;
  /** Instances started with the scheduler. */
  readonly instances: number;
  readonly runBatch: RunBatch;
}

/** Queue state for the management API. */
export interface QueueInfo {
  readonly pending: number;
  readonly executing: number;
  readonly capacity: number;
}

/** Seconds a client is told to wait before retrying when the queue is full. */
const RETRY_AFTER_SECONDS = 1;

function asInferenceError(error: unknown): SluiceError {
  if (isSluiceError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError('SLUICE_INFERENCE_FAILED', `inference failed: ${reason}`, {}, { cause: error });
}

/**
 * First-in first-out scheduler: one job per run, as many concurrent runs as instances, a bounded queue,
 * deadlines and client cancellation. A job that times out while running is answered at once and the
 * instance goes on serving when the run ends (its late result is dropped); a job whose deadline has passed
 * by the time an instance is free is answered with a timeout without running.
 */
export class FifoScheduler implements Scheduler {
  private readonly queue = new PayloadQueue();
  private readonly instances: ModelInstance[] = [];
  private executing = 0;
  private nextInstanceId = 1;
  private stopping = false;
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly options: FifoSchedulerOptions) {
    this.scale(options.instances);
  }

  private get label(): string {
    return `model \`${this.options.model}\` version \`${this.options.version}\``;
  }

  enqueue(job: InferenceJob): Promise<InferenceOutcome> {
    if (this.stopping) {
      return Promise.reject(new SluiceError('SLUICE_MODEL_UNLOADING', `${this.label} is being unloaded; send the request to another version or retry later`));
    }
    if (this.activeInstances() === 0) {
      return Promise.reject(
        new SluiceError(
          'SLUICE_MODEL_NO_WORKERS',
          `${this.label} has no workers; scale it up with PUT /models/${this.options.model}/${this.options.version}?min_worker=1`,
        ),
      );
    }
    if (this.queue.liveCount >= this.options.queueSize) {
      return Promise.reject(
        new SluiceError(
          'SLUICE_QUEUE_FULL',
          `the job queue of ${this.label} is full (${this.options.queueSize} waiting); retry after ${RETRY_AFTER_SECONDS} s or raise jobQueueSize`,
          { retryAfterSeconds: RETRY_AFTER_SECONDS, queueSize: this.options.queueSize },
        ),
      );
    }
    if (job.signal?.aborted) {
      return Promise.reject(new SluiceError('SLUICE_REQUEST_INVALID', 'the request was cancelled by the client before it was queued'));
    }
    return new Promise<InferenceOutcome>((resolve, reject) => {
      const payload = new Payload(job, resolve, reject);
      this.queue.push(payload);
      payload.watch(
        (p) => {
          this.expire(p);
        },
        (p) => {
          this.cancel(p);
        },
      );
      this.pump();
    });
  }

  /**
   * Jobs queued plus runs in progress. A job that timed out while running has been answered but is still
   * counted until its run ends, so {@link FifoScheduler.drain} waits for the instance to be free again.
   */
  inflightCount(): number {
    return this.queue.liveCount + this.executing;
  }

  /** Current queue figures. */
  queueInfo(): QueueInfo {
    return { pending: this.queue.liveCount, executing: this.executing, capacity: this.options.queueSize };
  }

  /** Every instance with its state. */
  instanceInfo(): InstanceInfo[] {
    return this.instances.map((i) => i.info());
  }

  /** Instances that take new work (not retiring). */
  activeInstances(): number {
    return this.instances.filter((i) => i.state !== 'retiring').length;
  }

  /**
   * Sets the number of instances. New ones start idle; surplus instances leave idle ones first, at once,
   * then busy ones after their current run, so no accepted job is lost. Scaling to zero answers queued
   * jobs with `SLUICE_MODEL_NO_WORKERS`.
   */
  scale(count: number): void {
    let active = this.activeInstances();
    while (active < count) {
      const retiring = this.instances.find((i) => i.state === 'retiring');
      if (retiring) retiring.state = 'busy';
      else this.instances.push(new ModelInstance(`${this.options.model}-${this.options.version}-${this.nextInstanceId++}`));
      active += 1;
    }
    for (let i = this.instances.length - 1; i >= 0 && active > count; i--) {
      if (this.instances[i]?.state !== 'idle') continue;
      this.instances.splice(i, 1);
      active -= 1;
    }
    for (let i = this.instances.length - 1; i >= 0 && active > count; i--) {
      const instance = this.instances[i];
      if (instance?.state !== 'busy') continue;
      instance.state = 'retiring';
      active -= 1;
    }
    if (count === 0) {
      const error = new SluiceError('SLUICE_MODEL_NO_WORKERS', `${this.label} was scaled to zero workers while this request waited`);
      for (const payload of this.queue.drain()) payload.fail(error);
    }
    this.pump();
  }

  /**
   * Waits until every accepted job is answered or `timeoutMs` passes, while refusing new jobs.
   * Resolves true when the scheduler drained in time.
   */
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
    const error = reason ?? new SluiceError('SLUICE_MODEL_UNLOADING', `${this.label} is being unloaded; the request was not run`);
    for (const payload of this.queue.drain()) payload.fail(error);
    if (this.executing > 0) {
      await new Promise<void>((resolve) => this.idleWaiters.add(resolve));
    }
  }

  private expire(payload: Payload): void {
    const wasQueued = payload.state === 'queued';
    payload.fail(this.timeoutError(payload, wasQueued), 'expired');
    if (wasQueued) this.queue.forget();
    this.notifyIfIdle();
  }

  private timeoutError(payload: Payload, queued: boolean): SluiceError {
    const waitedMs = Math.round(performance.now() - payload.enqueuedAt);
    return new SluiceError(
      'SLUICE_RESPONSE_TIMEOUT',
      `${this.label} did not answer within the response timeout (${waitedMs} ms, ${queued ? 'still queued' : 'still running'}); raise responseTimeoutMs or add workers`,
      { stage: queued ? 'queued' : 'executing' },
    );
  }

  private cancel(payload: Payload): void {
    if (payload.state !== 'queued') return; // a running job finishes; its answer goes nowhere
    payload.fail(new SluiceError('SLUICE_REQUEST_INVALID', 'the client cancelled the request while it was queued'), 'cancelled');
    this.queue.forget();
    this.notifyIfIdle();
  }

  private pump(): void {
    for (const instance of this.instances) {
      if (instance.state !== 'idle') continue;
      const payload = this.nextRunnable();
      if (payload === undefined) return;
      void this.run(instance, payload);
    }
  }

  /** The oldest queued payload still within its deadline; those past it (their timer not yet fired) expire here. */
  private nextRunnable(): Payload | undefined {
    let expired = false;
    for (let payload = this.queue.shift(); payload; payload = this.queue.shift()) {
      if (performance.now() < payload.job.deadline) return payload;
      payload.fail(this.timeoutError(payload, true), 'expired');
      expired = true;
    }
    if (expired) this.notifyIfIdle();
    return undefined;
  }

  private async run(instance: ModelInstance, payload: Payload): Promise<void> {
    instance.state = 'busy';
    payload.markExecuting();
    this.executing += 1;
    try {
      const results = await this.options.runBatch(instance, [payload.job]);
      const result = results[0];
      if (result?.ok) {
        payload.answer({
          outputs: result.outputs,
          queueUs: (payload.startedAt - payload.enqueuedAt) * 1000,
          computeUs: (performance.now() - payload.startedAt) * 1000,
          instanceId: instance.id,
        });
      } else {
        payload.fail(result?.error ?? new SluiceError('SLUICE_INTERNAL', 'the executor returned no result for a job'));
      }
    } catch (error) {
      // RunBatch must not reject, but a broken executor must still not leave a job unanswered.
      payload.fail(asInferenceError(error));
    }
    instance.jobsServed += 1;
    this.executing -= 1;
    this.release(instance);
    this.notifyIfIdle();
    this.pump();
  }

  private release(instance: ModelInstance): void {
    if (instance.state === 'retiring') {
      const index = this.instances.indexOf(instance);
      if (index >= 0) this.instances.splice(index, 1);
    } else {
      instance.state = 'idle';
    }
  }

  private notifyIfIdle(): void {
    if (this.executing > 0 || this.queue.liveCount > 0) return;
    for (const waiter of [...this.idleWaiters]) waiter();
  }
}
