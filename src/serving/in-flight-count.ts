/**
 * A count of calls under way, and who waits for it to reach zero: for a graceful stop that lets what
 * was accepted finish, within a bound.
 */
export class InFlightCount {
  private count = 0;
  private readonly idleWaiters = new Set<() => void>();

  /** Calls under way now. */
  get value(): number {
    return this.count;
  }

  /** One more call is under way. */
  began(): void {
    this.count += 1;
  }

  /** A call that {@link began} has ended; at zero, every waiter is told. */
  ended(): void {
    this.count -= 1;
    if (this.count > 0) return;
    const waiters = [...this.idleWaiters];
    this.idleWaiters.clear();
    for (const waiter of waiters) waiter();
  }

  /** Resolves true once no call is under way, or false when `timeoutMs` passes first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.idleWaiters.add(done);
    });
  }
}
