import { describe, expect, it } from '@jest/globals';
import { Payload } from '../../../src/batching/payload.js';
import { PayloadQueue } from '../../../src/batching/payload-queue.js';

function payloads(count: number): Payload[] {
  return Array.from(
    { length: count },
    () =>
      new Payload(
        { inputs: [], deadline: 0 },
        () => undefined,
        () => undefined,
      ),
  );
}

/** Positions of `taken` in `all` (-1 for undefined), so order is checked by identity. */
function positions(all: readonly Payload[], taken: readonly (Payload | undefined)[]): number[] {
  return taken.map((p) => (p === undefined ? -1 : all.indexOf(p)));
}

function queueOf(all: readonly Payload[]): PayloadQueue {
  const queue = new PayloadQueue();
  for (const p of all) queue.push(p);
  return queue;
}

describe('PayloadQueue', () => {
  it('is empty at first', () => {
    const queue = new PayloadQueue();
    expect(queue.liveCount).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it('counts pushed payloads as live', () => {
    expect(queueOf(payloads(3)).liveCount).toBe(3);
  });

  it('hands payloads out in the order they came', () => {
    const all = payloads(3);
    const queue = queueOf(all);
    expect(positions(all, [queue.shift(), queue.shift(), queue.shift(), queue.shift()])).toEqual([0, 1, 2, -1]);
    expect(queue.liveCount).toBe(0);
  });

  it('skips payloads that stopped being queued and were forgotten', () => {
    const all = payloads(3);
    const queue = queueOf(all);
    all[1]!.state = 'cancelled';
    queue.forget();
    expect(queue.liveCount).toBe(2);
    expect(positions(all, [queue.shift(), queue.shift(), queue.shift()])).toEqual([0, 2, -1]);
    expect(queue.liveCount).toBe(0);
  });

  it('gives nothing when only dead payloads are left', () => {
    const all = payloads(1);
    const queue = queueOf(all);
    all[0]!.state = 'expired';
    queue.forget();
    expect(queue.shift()).toBeUndefined();
    expect(queue.liveCount).toBe(0);
  });

  it('drains every live payload in order and is empty afterwards', () => {
    const all = payloads(3);
    const queue = queueOf(all);
    all[0]!.state = 'expired';
    queue.forget();
    expect(positions(all, queue.drain())).toEqual([1, 2]);
    expect(queue.liveCount).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it('keeps FIFO order across its internal compaction', () => {
    const all = payloads(3010);
    const queue = queueOf(all.slice(0, 3000));
    const out: (Payload | undefined)[] = [];
    for (let i = 0; i < 2000; i++) out.push(queue.shift());
    for (const p of all.slice(3000)) queue.push(p);
    out.push(...queue.drain());
    expect(positions(all, out)).toEqual(all.map((_, i) => i));
  });
});
