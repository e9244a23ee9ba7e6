import { randomFillSync } from 'node:crypto';
import { TraceId } from './trace-id.js';

/**
 * Random 32-bit words drawn in bulk, so that an id costs a few array reads rather than a call into the
 * system (or a Buffer read, whose argument checks cost more than the read itself).
 */
const POOL_WORDS = 2048;
const pool = new Uint32Array(POOL_WORDS);
let offset = POOL_WORDS;

function take(words: number): number {
  if (offset + words > POOL_WORDS) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += words;
  return at;
}

/** A new trace id: 16 random bytes, never all zero (the invalid id). */
export function newTraceId(): TraceId {
  for (;;) {
    const at = take(4);
    const id = new TraceId(pool[at] ?? 0, pool[at + 1] ?? 0, pool[at + 2] ?? 0, pool[at + 3] ?? 0);
    if ((id.word0 | id.word1 | id.word2 | id.word3) !== 0) return id;
  }
}

/** A new random 32-bit number, for span ids (a span id is two of them, not both zero). */
export function randomUint32(): number {
  return pool[take(1)] ?? 0;
}
