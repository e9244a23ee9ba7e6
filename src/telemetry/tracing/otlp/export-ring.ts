/**
 * The lock-free channel between the request thread and the export thread: a ring of batch descriptors
 * (which shared buffer, how many bytes, how many spans) written by the request thread, and a ring of
 * the ids of batches sent, written by the export thread, in one shared array of 32-bit cells. Each side
 * writes only its own counters and polls the other's, so neither ever waits for the other: on a busy
 * machine a thread can be descheduled at any moment, and a message port's lock held by a descheduled
 * thread had stalled the request thread for milliseconds.
 */

/** Batches under way at most (sent to the thread and not yet answered). */
export const RING_ENTRIES = 64;

const SENDS_WRITTEN = 0;
const SENDS_READ = 1;
const ACKS_WRITTEN = 2;
const SEND_FIELDS = 4;
const SENDS = 3;
const ACKS = SENDS + RING_ENTRIES * SEND_FIELDS;

/** The size of the shared array both ends are made over. */
export const RING_BYTES = (ACKS + RING_ENTRIES) * Int32Array.BYTES_PER_ELEMENT;

/** One batch handed to the export thread: its id, its shared buffer ("slot") and what it holds. */
export interface RingSend {
  readonly id: number;
  readonly slot: number;
  readonly length: number;
  readonly spanCount: number;
}

/** The request thread's end: writes batches, reads the ids of those sent. */
export class RingWriter {
  private readonly cells: Int32Array;
  private sends = 0;
  private acks = 0;

  constructor(shared: SharedArrayBuffer) {
    this.cells = new Int32Array(shared);
  }

  /** Hands `send` over; false when the ring is full (the thread has not read the oldest entry yet). */
  write(send: RingSend): boolean {
    const cells = this.cells;
    if (this.sends - Atomics.load(cells, SENDS_READ) >= RING_ENTRIES) return false;
    const at = SENDS + (this.sends % RING_ENTRIES) * SEND_FIELDS;
    cells[at] = send.id;
    cells[at + 1] = send.slot;
    cells[at + 2] = send.length;
    cells[at + 3] = send.spanCount;
    Atomics.store(cells, SENDS_WRITTEN, ++this.sends);
    return true;
  }

  /** Calls `sent` with the id of every batch the thread reported sent since the last call. */
  takeAcks(sent: (id: number) => void): void {
    const cells = this.cells;
    const written = Atomics.load(cells, ACKS_WRITTEN);
    while (this.acks < written) {
      const id = cells[ACKS + (this.acks % RING_ENTRIES)] ?? 0;
      this.acks++;
      sent(id);
    }
  }
}

/** The export thread's end: reads batches, writes the ids of those sent. */
export class RingReader {
  private readonly cells: Int32Array;
  private reads = 0;
  private acks = 0;

  constructor(shared: SharedArrayBuffer) {
    this.cells = new Int32Array(shared);
  }

  /** Calls `take` with every batch written since the last call. */
  takeSends(take: (send: RingSend) => void): void {
    const cells = this.cells;
    const written = Atomics.load(cells, SENDS_WRITTEN);
    while (this.reads < written) {
      const at = SENDS + (this.reads % RING_ENTRIES) * SEND_FIELDS;
      const send = { id: cells[at] ?? 0, slot: cells[at + 1] ?? 0, length: cells[at + 2] ?? 0, spanCount: cells[at + 3] ?? 0 };
      Atomics.store(cells, SENDS_READ, ++this.reads);
      take(send);
    }
  }

  /**
   * Reports batch `id` sent. The request thread keeps at most {@link RING_ENTRIES} batches unanswered,
   * so an id is never written over before it was read.
   */
  ack(id: number): void {
    this.cells[ACKS + (this.acks % RING_ENTRIES)] = id;
    Atomics.store(this.cells, ACKS_WRITTEN, ++this.acks);
  }
}
