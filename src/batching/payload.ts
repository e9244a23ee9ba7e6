import type { SluiceError } from '../common/errors/index.js';
import type { InferenceJob, InferenceOutcome } from './scheduler.js';

/**
 * Where a payload is in its life. Transitions: queued → executing → answered; queued → cancelled
 * (client gone) or expired (deadline); executing → expired (answered with a timeout while the run goes on).
 * Only `queued` and `executing` are live; the others are final.
 */
export type PayloadState = 'queued' | 'executing' | 'answered' | 'cancelled' | 'expired';

/** The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A job plus its promise and state: the unit the scheduler moves around. */
export class Payload {
  state: PayloadState = 'queued';
  /** `performance.now()` when the job was accepted. */
  readonly enqueuedAt = performance.now();
  /** `performance.now()` when execution started. */
  startedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private onAbort: (() => void) | undefined;

  constructor(
    readonly job: InferenceJob,
    private readonly resolveOutcome: (outcome: InferenceOutcome) => void,
    private readonly rejectOutcome: (error: SluiceError) => void,
  ) {}

  /** True while the payload still owes its caller an answer. */
  get live(): boolean {
    return this.state === 'queued' || this.state === 'executing';
  }

  /** Arms the deadline timer and the client-abort listener; `onExpire` / `onCancel` run at most once. */
  watch(onExpire: (payload: Payload) => void, onCancel: (payload: Payload) => void): void {
    const arm = (): void => {
      const delay = Math.max(0, this.job.deadline - performance.now());
      // Longer delays than a timer can hold fire at once, so a far deadline is reached in steps.
      this.timer = setTimeout(() => {
        if (delay > MAX_TIMER_DELAY_MS) arm();
        else onExpire(this);
      }, Math.min(delay, MAX_TIMER_DELAY_MS));
    };
    arm();
    const { signal } = this.job;
    if (signal) {
      this.onAbort = () => {
        onCancel(this);
      };
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Marks the payload as running. */
  markExecuting(): void {
    this.state = 'executing';
    this.startedAt = performance.now();
  }

  /** Delivers a result; ignored unless the payload is live. */
  answer(outcome: InferenceOutcome): void {
    if (!this.live) return;
    this.finish('answered');
    this.resolveOutcome(outcome);
  }

  /** Delivers an error and moves to `state`; ignored unless the payload is live. */
  fail(error: SluiceError, state: 'answered' | 'cancelled' | 'expired' = 'answered'): void {
    if (!this.live) return;
    this.finish(state);
    this.rejectOutcome(error);
  }

  private finish(state: PayloadState): void {
    this.state = state;
    if (this.timer) clearTimeout(this.timer);
    if (this.onAbort) this.job.signal?.removeEventListener('abort', this.onAbort);
  }
}
