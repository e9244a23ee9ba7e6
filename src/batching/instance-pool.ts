import type { SluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { ExecutionInstance, ExecutorModel } from '../sdk/executor/executor.js';

/** What an instance is doing. */
export type InstanceState = 'starting' | 'idle' | 'busy' | 'retiring' | 'failed';

/** A public, JSON-safe view of an instance for the management API. */
export interface InstanceInfo {
  readonly id: string;
  readonly state: InstanceState;
  readonly device: string;
  readonly startTime: string;
  readonly jobsServed: number;
  readonly batches: number;
  /** Fraction of the last utilisation window spent running batches (0..1). */
  readonly utilization: number;
  /** Milliseconds from its start to its first readiness; undefined while it starts. */
  readonly loadMs?: number;
}

/** One slot of the pool. */
export class PooledInstance {
  state: InstanceState = 'starting';
  execution: ExecutionInstance | undefined;
  jobsServed = 0;
  batches = 0;
  readonly startTime = new Date();
  /** Milliseconds from its start to its first readiness; undefined while it starts. */
  loadMs: number | undefined;
  private readonly startedAt = performance.now();
  /** `performance.now()` when the current batch started, or when it became idle. */
  since = performance.now();
  private busyInWindow = 0;
  private windowStart = performance.now();

  constructor(
    readonly id: string,
    readonly index: number,
  ) {}

  /** Notes that it became ready for the first time. */
  markReady(): void {
    this.loadMs ??= Math.round(performance.now() - this.startedAt);
  }

  /** Marks the start of a batch. */
  startBatch(): void {
    this.state = 'busy';
    this.since = performance.now();
  }

  /** Marks the end of a batch of `jobs` requests. */
  endBatch(jobs: number): void {
    const now = performance.now();
    this.busyInWindow += now - this.since;
    this.since = now;
    this.jobsServed += jobs;
    this.batches += 1;
  }

  /** Busy fraction since the window started, then starts a new window. */
  takeUtilization(): number {
    const now = performance.now();
    // A retiring instance is still running its last batch: it counts as busy until that batch ends.
    const running = this.state === 'busy' || this.state === 'retiring';
    const busyNow = running ? now - this.since : 0;
    const span = now - this.windowStart;
    const value = span <= 0 ? 0 : Math.min(1, (this.busyInWindow + busyNow) / span);
    this.busyInWindow = running ? -busyNow : 0;
    this.windowStart = now;
    return value;
  }

  /** The management view. */
  info(utilization: number): InstanceInfo {
    return {
      id: this.id,
      state: this.state,
      device: this.execution?.device ?? 'pending',
      startTime: this.startTime.toISOString(),
      jobsServed: this.jobsServed,
      batches: this.batches,
      utilization,
      ...(this.loadMs !== undefined ? { loadMs: this.loadMs } : {}),
    };
  }
}

/** First wait before replacing a failed instance; doubles per failure in a row, up to the maximum. */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 10_000;

/**
 * The instances of one model version: starts them through the executor, scales them without losing
 * accepted work (busy instances retire after their batch), and replaces failed ones with backoff.
 */
export class InstancePool {
  private readonly instances: PooledInstance[] = [];
  private target = 0;
  private nextId = 1;
  private failuresInARow = 0;
  private closed = false;
  private readonly utilization = new Map<string, number>();
  private readonly starting = new Set<Promise<void>>();
  /** Set once the first instances started: from then on, failed starts are retried. */
  private serving = false;
  private lastStartError: unknown;

  constructor(
    private readonly model: ExecutorModel,
    private readonly idPrefix: string,
    private readonly logger: Logger,
    /** Called whenever an instance becomes able to take work. */
    private readonly onAvailable: () => void,
  ) {}

  /** Instances that take or will take work (starting, idle or busy). */
  get activeCount(): number {
    let count = 0;
    for (const i of this.instances) if (i.state === 'starting' || i.state === 'idle' || i.state === 'busy') count += 1;
    return count;
  }

  /** Instances that are ready (idle or busy). */
  get readyCount(): number {
    let count = 0;
    for (const i of this.instances) if (i.state === 'idle' || i.state === 'busy') count += 1;
    return count;
  }

  /** Instances that are idle now. */
  get idleCount(): number {
    let count = 0;
    for (const i of this.instances) if (i.state === 'idle') count += 1;
    return count;
  }

  /** The number of instances asked for. */
  get targetCount(): number {
    return this.target;
  }

  /** An idle instance, if any. */
  idle(): PooledInstance | undefined {
    for (const i of this.instances) if (i.state === 'idle') return i;
    return undefined;
  }

  /** Every instance, for the management API. */
  info(): InstanceInfo[] {
    return this.instances.map((i) => i.info(this.utilization.get(i.id) ?? 0));
  }

  /** Refreshes each instance's utilisation over the window since the last call; returns the mean. */
  sampleUtilization(): number {
    let sum = 0;
    for (const instance of this.instances) {
      const value = instance.takeUtilization();
      this.utilization.set(instance.id, value);
      sum += value;
    }
    return this.instances.length === 0 ? 0 : sum / this.instances.length;
  }

  /**
   * Sets the number of instances. Surplus idle or starting instances leave at once, busy ones after their
   * batch; missing ones start (they are available once the executor says they are ready).
   */
  scale(count: number): void {
    this.target = count;
    let active = this.activeCount;
    for (const instance of this.instances) {
      if (active >= count) break;
      if (instance.state === 'retiring') {
        instance.state = 'busy';
        active += 1;
      }
    }
    while (active < count) {
      this.start(this.freeIndex());
      active += 1;
    }
    const order: InstanceState[] = ['starting', 'idle', 'busy'];
    for (const state of order) {
      for (let i = this.instances.length - 1; i >= 0 && active > count; i--) {
        const instance = this.instances[i];
        if (instance?.state !== state) continue;
        if (state === 'busy') instance.state = 'retiring';
        else this.remove(instance);
        active -= 1;
      }
    }
  }

  /** Called after a batch: the instance goes idle, or leaves when it was retiring. */
  finished(instance: PooledInstance, jobs: number): void {
    instance.endBatch(jobs);
    this.failuresInARow = 0;
    if (instance.state === 'retiring') this.remove(instance);
    else if (instance.state === 'busy') instance.state = 'idle';
  }

  /** Called when an instance failed fatally: it is released and replaced after a backoff. */
  failed(instance: PooledInstance, error: SluiceError): void {
    const wasRetiring = instance.state === 'retiring';
    instance.state = 'failed';
    this.remove(instance);
    if (wasRetiring || this.closed) return;
    this.replaceLater(instance, 'instance failed; replacing it', error.message);
  }

  /** Starts a replacement for `instance` after a backoff that doubles with each failure in a row. */
  private replaceLater(instance: PooledInstance, message: string, reason: string): void {
    this.failuresInARow += 1;
    const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failuresInARow - 1));
    this.logger.error(message, { instance: instance.id, reason, retryInMs: delay });
    setTimeout(() => {
      if (!this.closed && this.activeCount < this.target) this.start(instance.index);
    }, delay).unref();
  }

  /**
   * Waits for every instance being started; rejects with the last start error when none is ready
   * although some were asked for (a load that cannot serve).
   */
  async started(): Promise<void> {
    while (this.starting.size > 0) await Promise.all([...this.starting]);
    if (this.target > 0 && this.readyCount === 0) {
      throw this.lastStartError instanceof Error ? this.lastStartError : new Error(String(this.lastStartError));
    }
    this.serving = true;
  }

  /**
   * Releases every instance and resolves once instances still starting (warming up on the model) have
   * finished starting and were released too, so that the model can be released after it. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    const all = this.instances.splice(0);
    await Promise.all(all.map((i) => i.execution?.release() ?? Promise.resolve()));
    // A start that ends now releases its instance (see `onStarted`); a failed one has nothing to release.
    while (this.starting.size > 0) await Promise.all([...this.starting]);
  }

  private start(index: number): void {
    // Closed, the model is about to be released: nothing may start on it.
    if (this.closed) return;
    const instance = new PooledInstance(`${this.idPrefix}-${this.nextId++}`, index);
    this.instances.push(instance);
    const starting = this.model.createInstance(index).then(
      (execution) => this.onStarted(instance, execution),
      (error: unknown) => {
        this.lastStartError = error;
        const reason = error instanceof Error ? error.message : String(error);
        // One a scale-down removed while it started is not wanted: its failure is no failure of the pool.
        if (instance.state === 'starting' && this.instances.includes(instance)) {
          instance.state = 'failed';
          this.remove(instance);
          // At load a failed start fails the load; later (scaling, replacing) it is retried.
          if (this.serving && !this.closed) this.replaceLater(instance, 'instance failed to start; retrying', reason);
          else this.logger.error('instance failed to start', { instance: instance.id, reason });
        }
        this.onAvailable();
      },
    );
    this.starting.add(starting);
    // Handled here either way: a release that fails reaches whoever waits on the start (close, started).
    const settled = (): void => {
      this.starting.delete(starting);
    };
    starting.then(settled, settled);
  }

  /** An instance finished starting: it joins the pool, or is released when it is no longer wanted. */
  private async onStarted(instance: PooledInstance, execution: ExecutionInstance): Promise<void> {
    instance.execution = execution;
    // Closed, or removed by a scale-down while it started: nothing will ever run on it. Awaited, so that
    // a close waiting for this start waits for the release too.
    if (this.closed || instance.state !== 'starting' || !this.instances.includes(instance)) {
      await execution.release();
      return;
    }
    instance.state = 'idle';
    instance.since = performance.now();
    instance.markReady();
    this.onAvailable();
  }

  private remove(instance: PooledInstance): void {
    const at = this.instances.indexOf(instance);
    if (at >= 0) this.instances.splice(at, 1);
    this.utilization.delete(instance.id);
    void instance.execution?.release();
  }

  private freeIndex(): number {
    const used = new Set(this.instances.map((i) => i.index));
    let index = 0;
    while (used.has(index)) index += 1;
    return index;
  }
}
