import type { SluiceError } from '../sdk/errors/index.js';
import type { QueuedTrace } from './batch-tracing.js';
import { assertTransition, isLive, type PayloadState } from './payload-state.js';
import type { InferenceJob, InferenceOutcome } from './scheduler.js';

/** A job plus its promise, its place in the queues and its state: the unit the scheduler moves around. */
export class Payload {
  private current: PayloadState = 'queued';
  /** `performance.now()` when the job was accepted. */
  readonly arrival = performance.now();
  /** `performance.now()` when its batch started running. */
  startedAt = 0;
  /** True once the request's own deadline passed and the queue policy moved it behind the others. */
  delayed = false;
  /** True once it was put back in the queue after its instance failed. */
  retried = false;
  /** Set when the request is traced: told when the request leaves the queue. */
  trace: QueuedTrace | undefined;

  constructor(
    readonly job: InferenceJob,
    /** Arrival order, for FIFO and ordered answers. */
    readonly sequence: number,
    /** Priority level, 1 = highest. */
    readonly priority: number,
    /** Rows it brings to a batch (its first dimension). */
    readonly rows: number,
    /** Payloads with equal keys may share a batch; `undefined` runs alone. */
    readonly batchKey: string | undefined,
    private readonly resolveOutcome: (outcome: InferenceOutcome) => void,
    private readonly rejectOutcome: (error: SluiceError) => void,
  ) {}

  /** The current state. */
  get state(): PayloadState {
    return this.current;
  }

  /** True while the payload still owes its caller an answer. */
  get live(): boolean {
    return isLive(this.current);
  }

  /** Moves to `batched` or `executing`. */
  advance(to: 'batched' | 'executing'): void {
    assertTransition(this.current, to);
    this.current = to;
    if (to === 'executing') {
      this.startedAt = performance.now();
      this.trace?.dequeued();
    }
  }

  /** Puts a running payload back in the queue after its instance failed (once). */
  requeue(): void {
    assertTransition(this.current, 'queued');
    this.current = 'queued';
    this.retried = true;
  }

  /** Delivers the result; ignored once the payload is no longer live (e.g. it expired while running). */
  answer(outcome: InferenceOutcome): void {
    if (!this.live) return;
    assertTransition(this.current, 'answered');
    this.current = 'answered';
    this.resolveOutcome(outcome);
  }

  /** Delivers an error and moves to `state`; ignored once the payload is no longer live. */
  fail(error: SluiceError, state: 'answered' | 'cancelled' | 'expired' = 'answered'): void {
    if (!this.live) return;
    assertTransition(this.current, state);
    this.current = state;
    this.trace?.dequeued();
    this.rejectOutcome(error);
  }
}
