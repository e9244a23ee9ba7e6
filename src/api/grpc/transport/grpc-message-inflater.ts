import { decompressMessage, type GrpcCompression } from './grpc-compression.js';
import type { GrpcWireError } from './grpc-wire-error.js';

/** Where a {@link GrpcMessageInflater} hands a streamed request on, in order. */
export interface InflatedMessageSink {
  /** The next request message, decompressed. */
  message(bytes: Buffer): void;
  /** The next message did not decompress (over the limit, or corrupt); nothing after it is handed on. */
  refused(error: GrpcWireError): void;
  /** Every message before the end of the request was handed on. */
  end(): void;
  /** Every message that waited on zlib's thread pool was handed on: the request may be read on. */
  idle(): void;
}

/** A message (or the end) waiting for a message before it, or for its own inflation. */
interface Pending {
  ready: boolean;
  bytes?: Buffer;
  error?: GrpcWireError;
  end?: true;
}

/**
 * Decompresses the messages of a streamed request and hands them on in the order they came, whether each
 * was inflated at once or on zlib's thread pool (see {@link decompressMessage}): a small message after a
 * large one waits for it, and so does the end of the request. Uncompressed messages, with nothing
 * waiting before them, are handed on at once.
 */
export class GrpcMessageInflater {
  #queue: Pending[] = [];

  /** `compression`: the call's, when it names a supported one; `maxBytes`: the receive limit. */
  constructor(
    private readonly compression: GrpcCompression | undefined,
    private readonly maxBytes: number,
    private readonly sink: InflatedMessageSink,
  ) {}

  /**
   * Takes the next message as the decoder cut it out. True when it (and everything before it) was handed
   * on; false while it waits on the thread pool: the caller may stop reading until the sink is `idle`.
   */
  push(message: Buffer, compressed: boolean): boolean {
    const queue = this.#queue;
    if (!compressed && queue.length === 0) {
      this.sink.message(message);
      return true;
    }
    const pending: Pending = { ready: true };
    try {
      // The decoder refuses a compressed message on a call without a supported compression.
      const inflated = compressed && this.compression !== undefined ? decompressMessage(this.compression, message, this.maxBytes) : message;
      if (inflated instanceof Promise) {
        pending.ready = false;
        inflated.then(
          (bytes) => {
            this.#settle(pending, { bytes });
          },
          (error: unknown) => {
            this.#settle(pending, { error: error as GrpcWireError });
          },
        );
      } else pending.bytes = inflated;
    } catch (error) {
      pending.error = error as GrpcWireError;
    }
    queue.push(pending);
    this.#flush();
    return this.#queue.length === 0;
  }

  /** The request ended: tells the sink once the messages before the end were handed on. */
  end(): void {
    this.#queue.push({ ready: true, end: true });
    this.#flush();
  }

  /** Drops every message not yet handed on (the call no longer reads its request). */
  discard(): void {
    this.#queue = [];
  }

  #settle(pending: Pending, outcome: { bytes?: Buffer; error?: GrpcWireError }): void {
    Object.assign(pending, outcome, { ready: true });
    // After discard() the queue no longer holds it: flushing hands on nothing of the old queue.
    this.#flush();
    if (this.#queue.length === 0) this.sink.idle();
  }

  #flush(): void {
    while (this.#queue[0]?.ready === true) {
      const next = this.#queue.shift() as Pending;
      if (next.end === true) this.sink.end();
      else if (next.error !== undefined) {
        this.#queue = [];
        this.sink.refused(next.error);
      } else this.sink.message(next.bytes as Buffer);
    }
  }
}
