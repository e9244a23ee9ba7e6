/**
 * Releases answers in arrival order (`preserveOrdering`): an answer that is ready early waits until every
 * earlier request has been answered. Every sequence number must be released exactly once.
 */
export class OrderedAnswers {
  private next = 0;
  private readonly ready = new Map<number, () => void>();

  /** Delivers `deliver` for request `sequence` as soon as all earlier ones are delivered. */
  release(sequence: number, deliver: () => void): void {
    this.ready.set(sequence, deliver);
    for (let pending = this.ready.get(this.next); pending !== undefined; pending = this.ready.get(this.next)) {
      this.ready.delete(this.next);
      this.next += 1;
      pending();
    }
  }

  /** Answers waiting for earlier ones. */
  get waiting(): number {
    return this.ready.size;
  }
}
