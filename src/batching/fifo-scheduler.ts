import { SluiceError } from '../common/errors/index.js';
import type { JobResult } from '../executors/executor.js';
import { ModelInstance, type InstanceInfo } from './model-instance.js';
import { Payload } from './payload.js';
import { PayloadQueue } from './payload-queue.js';
import type { InferenceJob, InferenceOutcome, Scheduler } from './scheduler.js';

/** Runs a batch of jobs on an instance; one result per job, in order; never rejects. */
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

/**
 * First-in first-out scheduler: one job per run, as many concurrent runs as instances, a bounded queue,
 * deadlines and client cancellation. A job that times out while running is answered at once and the
 * instance goes on serving when the run ends (its late result is dropped).
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
   * Sets the number of instances. New ones start idle; surplus idle ones leave at once and busy ones
   * leave after their current run, so no accepted job is lost. Scaling to zero answers queued jobs with
   * `SLUICE_MODEL_NO_WORKERS`.
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
      const instance = this.instances[i];
      if (instance === undefined || instance.state === 'retiring') continue;
      if (instance.state === 'idle') this.instances.splice(i, 1);
      else instance.state = 'retiring';
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
    const waitedMs = Math.round(performance.now() - payload.enqueuedAt);
    payload.fail(
      new SluiceError(
        'SLUICE_RESPONSE_TIMEOUT',
        `${this.label} did not answer within the response timeout (${waitedMs} ms, ${wasQueued ? 'still queued' : 'still running'}); raise responseTimeoutMs or add workers`,
        { stage: wasQueued ? 'queued' : 'executing' },
      ),
      'expired',
    );
    if (wasQueued) this.queue.forget();
    this.notifyIfIdle();
  }

  private cancel(payload: Payload): void {
    if (payload.state !== 'queued') return; // a running job finishes; its answer goes nowhere
    payload.fail(new SluiceError('SLUICE_REQUEST_INVALID', 'the client cancelled the request while it was queued'), 'cancelled');
    this.queue.forget();
    this.notifyIfIdle();
  }

  private pump(): void {
    for (const instance of this.instances) {
      if (this.queue.liveCount === 0) return;
      if (instance.state !== 'idle') continue;
      const payload = this.queue.shift();
      if (payload === undefined) return;
      this.run(instance, payload);
    }
  }

  private run(instance: ModelInstance, payload: Payload): void {
    instance.state = 'busy';
    payload.markExecuting();
    this.executing += 1;
    void this.options.runBatch(instance, [payload.job]).then((results) => {
      const computeUs = (performance.now() - payload.startedAt) * 1000;
      const result = results[0];
      if (result?.ok) {
        payload.answer({
          outputs: result.outputs,
          queueUs: (payload.startedAt - payload.enqueuedAt) * 1000,
          computeUs,
          instanceId: instance.id,
        });
      } else {
        payload.fail(result?.error ?? new SluiceError('SLUICE_INTERNAL', 'the executor returned no result for a job'));
      }
      instance.jobsServed += 1;
      this.executing -= 1;
      this.release(instance);
      this.notifyIfIdle();
      this.pump();
    });
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
