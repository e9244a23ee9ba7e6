import { MAX_TIMER_DELAY_MS } from '../../timers/long-timeout.js';

/**
 * A call that must be answered by {@link deadline} while it waits on work nothing can interrupt (a
 * handler stage on the event loop). While it is entered ({@link DeadlineSweep.enter}), the sweep calls
 * {@link expire} once the deadline passes. The list fields belong to the sweep: a call only starts them
 * out `false` and `undefined`. An interface rather than a base class: on the inference hot path, a
 * subclass's constructor chain costs every request.
 */
export interface SweptCall {
  /** When the call must be answered by, on the `performance.now()` clock. */
  readonly deadline: number;
  /** True once the deadline passed while the call was entered: its answer went out, and what it does now goes nowhere. */
  expired: boolean;
  linked: boolean;
  prev: SweptCall | undefined;
  next: SweptCall | undefined;
  /** Called once, when the deadline has passed at `now` while the call was entered: answers it with its timeout. */
  expire(now: number): void;
}

/**
 * Answers calls whose deadline passes while they wait, with one timer for all of them. Entering and
 * leaving only link and unlink the call (no timer per call: this is on the inference hot path). The timer
 * is set for the earliest deadline among the calls entered since it last fired, is unref'd, and is not
 * cleared when the calls leave: clearing and setting it again would cost each request more than the
 * stray firing of an idle sweep costs once per deadline.
 */
export class DeadlineSweep {
  private first: SweptCall | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires; `Infinity` while it is not set. */
  private timerDue = Infinity;

  /** `call` now waits on uninterruptible work: its deadline is watched until {@link leave}. Idempotent; ignored once it expired. */
  enter(call: SweptCall): void {
    if (call.linked || call.expired) return;
    call.linked = true;
    call.next = this.first;
    if (this.first !== undefined) this.first.prev = call;
    this.first = call;
    if (call.deadline < this.timerDue) this.arm(call.deadline);
  }

  /** `call` no longer waits; its deadline is not watched. Idempotent, and harmless after it expired. */
  leave(call: SweptCall): void {
    if (!call.linked) return;
    call.linked = false;
    if (call.prev === undefined) this.first = call.next;
    else call.prev.next = call.next;
    if (call.next !== undefined) call.next.prev = call.prev;
    call.prev = undefined;
    call.next = undefined;
  }

  /** How many calls are entered now. */
  get pending(): number {
    let count = 0;
    for (let call = this.first; call !== undefined; call = call.next) count++;
    return count;
  }

  /** Whether the timer is set. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** Expires every entered call whose deadline has passed, and sets the timer for the earliest left. */
  sweep(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Infinity;
    const now = performance.now();
    let earliest = Infinity;
    for (let call = this.first; call !== undefined; ) {
      const following = call.next;
      if (call.deadline <= now) {
        this.leave(call);
        call.expired = true;
        call.expire(now);
      } else if (call.deadline < earliest) {
        earliest = call.deadline;
      }
      call = following;
    }
    if (earliest !== Infinity) this.arm(earliest);
  }

  private arm(due: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerDue = due;
    // Node's timer clock may run a little behind `performance.now()`: a sweep that comes early finds the
    // call not yet due and sets the timer again for the rest. So does one after the longest delay a timer
    // holds (Node would run a longer one after 1 ms, and again and again while the call waits).
    this.timer = setTimeout(this.onTimer, Math.min(MAX_TIMER_DELAY_MS, Math.max(0, Math.ceil(due - performance.now()))));
    this.timer.unref();
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.sweep();
  };
}
