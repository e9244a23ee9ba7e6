/**
 * A hand-operated gate: while held, callers of {@link pass} wait at it; tests learn when a call has
 * reached it and open it when they choose, so nothing depends on how long anything takes.
 */
export class Gate {
  private held = false;
  private waiting: (() => void)[] = [];
  private arrivals = 0;
  private arrivalListeners: (() => void)[] = [];

  /** Calls that have reached the gate so far. */
  get arrived(): number {
    return this.arrivals;
  }

  /** Later calls wait until {@link release}. */
  hold(): void {
    this.held = true;
  }

  /** Lets every waiting call through and stops holding. */
  release(): void {
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** Resolves once at least `count` calls have reached the gate. */
  async untilArrived(count: number): Promise<void> {
    while (this.arrivals < count) await new Promise<void>((resolve) => this.arrivalListeners.push(resolve));
  }

  /** Counts the arrival, then waits while the gate is held. */
  async pass(): Promise<void> {
    this.arrivals += 1;
    const listeners = this.arrivalListeners;
    this.arrivalListeners = [];
    for (const listener of listeners) listener();
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
