import { NUMERIC_DATATYPE_INFO, type InputAllocator, type NumericTensorData } from '../../src/sdk/index.js';

/** The buffers one batch took from an {@link InputBufferPool}. */
export interface InputBufferLease {
  /** Hands out a typed array for an input of the batch, reusing a free one of the same kind and length. */
  readonly allocate: InputAllocator;
  /** Gives every buffer the batch took back to the pool; call it once the batch's run has finished. */
  release(): void;
}

/**
 * Reusable input buffers, keyed by input name, datatype and length (so, for a given model, by batch
 * size). A buffer is in exactly one place: leased to a running batch or free in the pool, so it is never
 * handed out while a batch still reads it. Free buffers are bounded by `maxBytes`; past it the kinds used
 * least recently are dropped.
 */
export class InputBufferPool {
  /** Free buffers per kind, least recently used kind first. */
  private readonly free = new Map<string, NumericTensorData[]>();
  private freeBytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held by free buffers. */
  get pooledBytes(): number {
    return this.freeBytes;
  }

  /** A lease for one batch. With `maxBytes` 0 it hands out nothing, and callers allocate as usual. */
  lease(): InputBufferLease {
    const taken: [string, NumericTensorData][] = [];
    let released = false;
    const allocate: InputAllocator = (name, datatype, length) => {
      if (datatype === 'BYTES' || this.maxBytes === 0) return undefined;
      const key = `${name}\u0000${datatype}\u0000${length}`;
      const buffer = this.take(key) ?? new NUMERIC_DATATYPE_INFO[datatype].array(length);
      taken.push([key, buffer]);
      return buffer;
    };
    const release = (): void => {
      if (released) return;
      released = true;
      for (const [key, buffer] of taken) this.give(key, buffer);
      this.evict();
    };
    return { allocate, release };
  }

  private take(key: string): NumericTensorData | undefined {
    const list = this.free.get(key);
    const buffer = list?.pop();
    if (list === undefined || buffer === undefined) return undefined;
    this.freeBytes -= buffer.byteLength;
    if (list.length === 0) this.free.delete(key);
    return buffer;
  }

  private give(key: string, buffer: NumericTensorData): void {
    const list = this.free.get(key) ?? [];
    list.push(buffer);
    this.freeBytes += buffer.byteLength;
    // Re-inserting moves the kind to the most recently used end.
    this.free.delete(key);
    this.free.set(key, list);
  }

  private evict(): void {
    for (const [key, list] of this.free) {
      if (this.freeBytes <= this.maxBytes) return;
      while (list.length > 0 && this.freeBytes > this.maxBytes) this.freeBytes -= list.shift()?.byteLength ?? 0;
      if (list.length === 0) this.free.delete(key);
    }
  }
}
