import { describe, expect, it } from '@jest/globals';
import { InputBufferPool } from '../../../../plugins/gpu-executor/input-buffer-pool.js';

describe('InputBufferPool', () => {
  it('hands out a zeroed typed array of the datatype and length asked for', () => {
    const array = new InputBufferPool(1024).lease().allocate('x', 'INT64', 3);
    expect(array).toEqual(new BigInt64Array(3));
  });

  it('hands the same array to the next batch once the first gave it back', () => {
    const pool = new InputBufferPool(1024);
    const first = pool.lease();
    const array = first.allocate('x', 'FP32', 6);
    first.release();
    expect(pool.lease().allocate('x', 'FP32', 6)).toBe(array);
  });

  it('never hands an array out to a second batch while the first still holds it', () => {
    const pool = new InputBufferPool(1024);
    const earlier = pool.lease();
    earlier.allocate('x', 'FP32', 6);
    earlier.release();
    const first = pool.lease().allocate('x', 'FP32', 6);
    expect(pool.lease().allocate('x', 'FP32', 6)).not.toBe(first);
  });

  it('keeps arrays of different lengths apart', () => {
    const pool = new InputBufferPool(1024);
    const lease = pool.lease();
    lease.allocate('x', 'FP32', 6);
    lease.release();
    expect(pool.lease().allocate('x', 'FP32', 9)).toHaveLength(9);
  });

  it('keeps arrays of different inputs apart', () => {
    const pool = new InputBufferPool(1024);
    const lease = pool.lease();
    const x = lease.allocate('x', 'FP32', 6);
    lease.release();
    expect(pool.lease().allocate('y', 'FP32', 6)).not.toBe(x);
  });

  it('hands out nothing for BYTES inputs', () => {
    expect(new InputBufferPool(1024).lease().allocate('text', 'BYTES', 2)).toBeUndefined();
  });

  it('hands out nothing when its size is 0', () => {
    expect(new InputBufferPool(0).lease().allocate('x', 'FP32', 6)).toBeUndefined();
  });

  it('takes an array back only once when a lease is released twice', () => {
    const pool = new InputBufferPool(1024);
    const lease = pool.lease();
    lease.allocate('x', 'FP32', 6);
    lease.release();
    lease.release();
    const a = pool.lease().allocate('x', 'FP32', 6);
    expect(pool.lease().allocate('x', 'FP32', 6)).not.toBe(a);
  });

  it('counts the bytes of the free arrays it keeps', () => {
    const pool = new InputBufferPool(1024);
    const lease = pool.lease();
    lease.allocate('x', 'FP32', 6);
    lease.allocate('ids', 'INT64', 2);
    lease.release();
    expect(pool.pooledBytes).toBe(40);
  });

  it('drops the arrays of the kind used least recently beyond its size', () => {
    const pool = new InputBufferPool(48);
    const first = pool.lease();
    const x = first.allocate('x', 'FP32', 6);
    const y = first.allocate('y', 'FP32', 6);
    first.release();
    const second = pool.lease();
    second.allocate('z', 'FP32', 6);
    second.release();
    const third = pool.lease();
    expect([third.allocate('x', 'FP32', 6) === x, third.allocate('y', 'FP32', 6) === y, pool.pooledBytes]).toEqual([false, true, 24]);
  });
});
