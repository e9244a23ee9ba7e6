/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/**
 * A counting semaphore for one device: at most `limit` batches hold a slot at once, and the ones that wait
 * get slots in the order they asked.
 */
export class DeviceSlots {
  private held = 0;
  private readonly queue: ((release: ReleaseSlot) => void)[] = [];

  constructor(readonly limit: number) {}

  /** Slots held now. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with the function that gives the slot back, once a slot is free. */
  acquire(): Promise<ReleaseSlot> {
    if (this.held < this.limit) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next === undefined) this.held -= 1;
      else next(this.releaser());
    };
  }
}
