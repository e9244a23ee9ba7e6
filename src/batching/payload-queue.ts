import type { Payload } from './payload.js';

/**
 * A FIFO of payloads with O(1) push and shift. Payloads that stop being live while queued (expired,
 * cancelled) are skipped lazily when they reach the head; `liveCount` is kept exact for the capacity check.
 */
export class PayloadQueue {
  private items: (Payload | undefined)[] = [];
  private head = 0;
  private live = 0;

  /** Payloads that are still waiting. */
  get liveCount(): number {
    return this.live;
  }

  /** Appends a payload. */
  push(payload: Payload): void {
    this.items.push(payload);
    this.live += 1;
  }

  /** Must be called when a queued payload leaves the queue without being shifted (expired, cancelled). */
  forget(): void {
    this.live -= 1;
  }

  /** The oldest live payload, removed from the queue, or undefined when none waits. */
  shift(): Payload | undefined {
    while (this.head < this.items.length) {
      const payload = this.items[this.head];
      this.items[this.head] = undefined;
      this.head += 1;
      if (payload?.state === 'queued') {
        this.live -= 1;
        this.compact();
        return payload;
      }
    }
    this.compact();
    return undefined;
  }

  /** Removes and returns every live payload. */
  drain(): Payload[] {
    const out: Payload[] = [];
    for (let payload = this.shift(); payload; payload = this.shift()) out.push(payload);
    return out;
  }

  private compact(): void {
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
