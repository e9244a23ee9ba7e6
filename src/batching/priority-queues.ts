import type { Payload } from './payload.js';

/** A FIFO array with a moving head; dead entries are skipped lazily. */
class Lane {
  items: (Payload | undefined)[] = [];
  head = 0;
  /**
   * Dead entries behind a live one that the last full scan of the lane passed over: payloads taken into
   * a batch led from another level or shape, while the one ahead of them waits (a lower level under
   * steady load of a higher one, or a shape no batch takes yet).
   */
  deadBehind = 0;

  /**
   * Drops dead entries at the head and compacts now and then. A dropped entry's slot is cleared at once:
   * a finished payload still holds its request (inputs, answer callbacks, trace), and left in the array
   * until the next compaction, hundreds of them outlived young-generation collections under load and
   * were promoted, costing every request garbage collection time.
   */
  trim(): void {
    while (this.head < this.items.length && this.items[this.head]?.state !== 'queued') {
      this.items[this.head] = undefined;
      this.head += 1;
    }
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.deadBehind > 256 && this.deadBehind * 2 > this.items.length - this.head) {
      // Trimming stops at the waiting payload; without this, every batch would scan what piled up behind it.
      this.items = this.items.filter((p, i) => i >= this.head && p?.state === 'queued');
      this.head = 0;
      this.deadBehind = 0;
    } else if (this.head > 256 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * Queued payloads by priority level (1 = highest), FIFO within a level, and a last lane for payloads the
 * `delay` queue policy moved behind everything else. Payloads leave by changing state (batched,
 * expired, cancelled); they are dropped from the lanes lazily, and `liveCount` is kept exact.
 */
export class PriorityQueues {
  private readonly lanes: Lane[];
  private live = 0;

  constructor(levels: number) {
    this.lanes = Array.from({ length: levels + 1 }, () => new Lane());
  }

  /** Payloads still queued. */
  get liveCount(): number {
    return this.live;
  }

  /** Queues a payload at its priority level. */
  push(payload: Payload): void {
    this.laneOf(payload.priority).items.push(payload);
    this.live += 1;
  }

  /**
   * Takes back the payload {@link push} queued last, as if it had never been queued (a request refused
   * because its place in the queue would leave too many waiting).
   */
  withdraw(payload: Payload): void {
    const lane = this.laneOf(payload.priority);
    const at = lane.items.lastIndexOf(payload);
    if (at < 0) return;
    lane.items.splice(at, 1);
    this.live -= 1;
  }

  /**
   * Puts a payload back at the front of its level (a batch retried after its instance failed), or at the
   * front of the delayed ones when the `delay` policy had moved it there. The entry it may still have
   * further back in that lane (lanes drop entries lazily) is removed, so that it is listed once.
   */
  pushFront(payload: Payload): void {
    const lane = payload.delayed ? this.delayedLane() : this.laneOf(payload.priority);
    const old = lane.items.indexOf(payload, lane.head);
    if (old >= 0) lane.items.splice(old, 1);
    lane.items.splice(lane.head, 0, payload);
    this.live += 1;
  }

  /** Moves a queued payload behind every other (the `delay` policy); it keeps its place among the delayed. */
  demote(payload: Payload): void {
    if (payload.delayed) return;
    payload.delayed = true;
    // Its old entry goes too: still `queued`, it would stop the lane's trimming at it, and every request
    // that passed through the lane after it would stay listed (and be scanned by every batch) until it ran.
    const lane = this.laneOf(payload.priority);
    const old = lane.items.indexOf(payload, lane.head);
    if (old >= 0) lane.items[old] = undefined;
    lane.trim();
    this.delayedLane().items.push(payload);
  }

  /** Must be called once when a queued payload leaves the queue (batched, expired, cancelled, refused). */
  left(): void {
    this.live -= 1;
  }

  /** The payload that goes next: the oldest of the highest non-empty level. */
  first(): Payload | undefined {
    for (const payload of this.inOrder()) return payload;
    return undefined;
  }

  /**
   * When the longest-waiting live payload arrived (Infinity when none waits). Each lane's first live
   * payload is its oldest, so this looks at one per level: the oldest of all may wait at a lower level than
   * the payload that goes next.
   */
  oldestArrival(): number {
    let oldest = Infinity;
    for (const lane of this.lanes) {
      lane.trim();
      const first = lane.items[lane.head];
      if (first !== undefined && first.arrival < oldest) oldest = first.arrival;
    }
    return oldest;
  }

  /** Live queued payloads in the order they should run: by level, oldest first, delayed ones last. */
  *inOrder(): Generator<Payload> {
    for (let level = 0; level < this.lanes.length; level++) {
      const lane = this.lanes[level];
      if (lane === undefined) continue;
      lane.trim();
      let dead = 0;
      for (let i = lane.head; i < lane.items.length; i++) {
        const payload = lane.items[i];
        if (payload === undefined || payload.state !== 'queued') {
          // Cleared for the same reason as at the head: a finished request must not stay reachable.
          lane.items[i] = undefined;
          dead += 1;
          continue;
        }
        yield payload;
      }
      lane.deadBehind = dead;
    }
  }

  /** Every queued payload, removed from the count (the caller answers them). */
  drain(): Payload[] {
    const all = [...this.inOrder()];
    this.live -= all.length;
    return all;
  }

  private delayedLane(): Lane {
    const lane = this.lanes[this.lanes.length - 1];
    if (lane === undefined) throw new RangeError('no lane for delayed payloads');
    return lane;
  }

  private laneOf(priority: number): Lane {
    const index = Math.min(Math.max(priority, 1), this.lanes.length - 1) - 1;
    const lane = this.lanes[index];
    if (lane === undefined) throw new RangeError(`no lane for priority ${priority}`);
    return lane;
  }
}
