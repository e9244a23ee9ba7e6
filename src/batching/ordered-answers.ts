/**
 * Releases answers in arrival order (`preserveOrdering`): an answer that is ready early waits until every
 * earlier request has been answered. Every sequence number must be released exactly once.
 */
export class OrderedAnswers {
  private next = 0;
  /**
   * The deliveries waiting, at their sequence number less {@link next}. An array rather than a `Map`
   * whose keys change with every request: a long-lived `Map` like that chains its retired hash tables
   * into the old generation (see `ArrayBackedSet`).
   */
  private readonly ready: ((() => void) | undefined)[] = [];
  private count = 0;

  /** Delivers `deliver` for request `sequence` as soon as all earlier ones are delivered. */
  release(sequence: number, deliver: () => void): void {
    this.ready[sequence - this.next] = deliver;
    this.count += 1;
    for (let pending = this.ready[0]; pending !== undefined; pending = this.ready[0]) {
      this.ready.shift();
      this.count -= 1;
      this.next += 1;
      pending();
    }
  }

  /** Answers waiting for earlier ones. */
  get waiting(): number {
    return this.count;
  }
}
