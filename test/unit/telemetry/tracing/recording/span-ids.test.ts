import { describe, expect, it, jest } from '@jest/globals';

/**
 * The bytes each refill of the id pool gets, one fill value per refill, so that tests can give the pool
 * bytes that random ones would give only by chance (all zeros, all ones); random bytes once none is left.
 */
const fills: number[] = [];
const crypto = await import('node:crypto');
jest.unstable_mockModule('node:crypto', () => ({
  ...crypto,
  randomFillSync: <T extends NodeJS.ArrayBufferView>(buffer: T): T => {
    const fill = fills.shift();
    if (fill === undefined) return crypto.randomFillSync(buffer);
    new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).fill(fill);
    return buffer;
  },
}));
const { newTraceId, randomUint32 } = await import('../../../../../src/telemetry/tracing/recording/span-ids.js');

const POOL_BYTES = 8192;

/** Draws until the pool is refilled with zero bytes: what is drawn next is zeros, up to the following refill. */
function enterZeroPool(): void {
  fills.push(0x00);
  while (randomUint32() !== 0);
}

describe('newTraceId', () => {
  it('is 32 lowercase hex digits', () => {
    expect(newTraceId().hex).toMatch(/^[0-9a-f]{32}$/);
  });

  it('gives a different id each time, across refills of the pool', () => {
    const ids = new Set(Array.from({ length: 2 * (POOL_BYTES / 16) + 3 }, () => newTraceId().hex));
    expect(ids.size).toBe(2 * (POOL_BYTES / 16) + 3);
  });

  it('is never the invalid all-zero id, even when the random bytes are all zero', () => {
    enterZeroPool();
    fills.push(0x5a);
    expect(newTraceId().hex).toBe('5a'.repeat(16));
  });
});

describe('randomUint32', () => {
  it('reads four random bytes as one unsigned number', () => {
    enterZeroPool();
    fills.push(0xff);
    let value = 0;
    while (value === 0) value = randomUint32();
    expect(value).toBe(0xffffffff);
  });

  it('gives whole numbers from 0 to 2^32 - 1', () => {
    const values = Array.from({ length: 4096 }, () => randomUint32());
    expect(values.every((v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32)).toBe(true);
  });
});
