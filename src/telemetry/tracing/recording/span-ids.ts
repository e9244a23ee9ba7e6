import { randomFillSync } from 'node:crypto';

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

function randomHex(bytes: number): string {
  const at = take(bytes);
  return pool.toString('hex', at, at + bytes);
}

const INVALID_TRACE_ID = '0'.repeat(32);

/** A new trace id: 16 random bytes as 32 lowercase hex digits, never all zero (the invalid id). */
export function newTraceId(): string {
  let id = randomHex(16);
  while (id === INVALID_TRACE_ID) id = randomHex(16);
  return id;
}

/** A new random 32-bit number, for span ids (a span id is two of them, not both zero). */
export function randomUint32(): number {
  return pool.readUInt32BE(take(4));
}
