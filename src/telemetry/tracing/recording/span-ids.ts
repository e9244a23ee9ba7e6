import { randomFillSync } from 'node:crypto';
import { TraceId } from './trace-id.js';

/** Random bytes drawn in bulk, so that an id costs a slice of a buffer rather than a call into the system. */
const POOL_SIZE = 8192;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

function take(bytes: number): number {
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += bytes;
  return at;
}

/** A new trace id: 16 random bytes, never all zero (the invalid id). */
export function newTraceId(): TraceId {
  for (;;) {
    const at = take(16);
    const id = new TraceId(pool.readUInt32BE(at), pool.readUInt32BE(at + 4), pool.readUInt32BE(at + 8), pool.readUInt32BE(at + 12));
    if ((id.word0 | id.word1 | id.word2 | id.word3) !== 0) return id;
  }
}

/** A new random 32-bit number, for span ids (a span id is two of them, not both zero). */
export function randomUint32(): number {
  return pool.readUInt32BE(take(4));
}
