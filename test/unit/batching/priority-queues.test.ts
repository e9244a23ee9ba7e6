import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import type { Payload } from '../../../src/batching/payload.js';
import { PriorityQueues } from '../../../src/batching/priority-queues.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { order, payload, queuesOf } from './support/payloads.js';

describe('PriorityQueues', () => {
  it('keeps arrival order within a level', () => {
    const queues = queuesOf(1, [payload(0), payload(1), payload(2)]);
    expect(order(queues)).toEqual([0, 1, 2]);
  });

  it('serves a higher level (lower number) first', () => {
    const queues = queuesOf(3, [payload(0, { priority: 3 }), payload(1, { priority: 2 }), payload(2, { priority: 1 }), payload(3, { priority: 3 })]);
    expect(order(queues)).toEqual([2, 1, 0, 3]);
  });

  it('gives the oldest of the highest non-empty level as first()', () => {
    const queues = queuesOf(2, [payload(0, { priority: 2 }), payload(1, { priority: 1 }), payload(2, { priority: 1 })]);
    expect(queues.first()?.sequence).toBe(1);
  });

  it('gives the arrival of the oldest live payload, whatever its level, as oldestArrival()', () => {
    const old = payload(0, { priority: 2 });
    const next = payload(1, { priority: 2 });
    const queues = queuesOf(2, [old, next, payload(2, { priority: 1 })]);
    expect(queues.oldestArrival()).toBe(old.arrival);
    old.advance('batched');
    queues.left();
    expect(queues.oldestArrival()).toBe(next.arrival);
  });

  it('has an oldestArrival() of Infinity when empty', () => {
    expect(new PriorityQueues(2).oldestArrival()).toBe(Infinity);
  });

  it('has no first() when empty', () => {
    expect(new PriorityQueues(2).first()).toBeUndefined();
  });

  it('takes back the payload pushed last as if it had never been queued', () => {
    const last = payload(2, { priority: 1 });
    const queues = queuesOf(2, [payload(0, { priority: 1 }), payload(1, { priority: 2 }), last]);
    queues.withdraw(last);
    expect([order(queues), queues.liveCount]).toEqual([[0, 1], 2]);
  });

  it('puts a demoted payload behind every level', () => {
    const demoted = payload(0, { priority: 1 });
    const queues = queuesOf(2, [demoted, payload(1, { priority: 1 }), payload(2, { priority: 2 })]);
    queues.demote(demoted);
    expect(order(queues)).toEqual([1, 2, 0]);
  });

  it('marks a demoted payload as delayed', () => {
    const demoted = payload(0);
    const queues = queuesOf(1, [demoted]);
    queues.demote(demoted);
    expect(demoted.delayed).toBe(true);
  });

  it('keeps demoted payloads in the order they were demoted', () => {
    const a = payload(0);
    const b = payload(1);
    const queues = queuesOf(1, [a, b, payload(2)]);
    queues.demote(b);
    queues.demote(a);
    expect(order(queues)).toEqual([2, 1, 0]);
  });

  it('lists a payload demoted twice only once', () => {
    const demoted = payload(0);
    const queues = queuesOf(1, [demoted, payload(1)]);
    queues.demote(demoted);
    queues.demote(demoted);
    expect(order(queues)).toEqual([1, 0]);
  });

  it('does not count a demotion as a new payload', () => {
    const demoted = payload(0);
    const queues = queuesOf(1, [demoted, payload(1)]);
    queues.demote(demoted);
    expect(queues.liveCount).toBe(2);
  });

  it('puts a payload back at the front of its level with pushFront', () => {
    const back = payload(0, { priority: 2 });
    const queues = queuesOf(2, [payload(1, { priority: 2 }), payload(2, { priority: 1 })]);
    queues.pushFront(back);
    expect(order(queues)).toEqual([2, 0, 1]);
  });

  it('counts a payload put back with pushFront', () => {
    const queues = queuesOf(1, [payload(1)]);
    queues.pushFront(payload(0));
    expect(queues.liveCount).toBe(2);
  });

  it('lists a payload put back while it still has its old place only once', () => {
    const head = payload(0, { key: 'a' });
    const retried = payload(2, { key: 'a' });
    const queues = queuesOf(1, [head, payload(1, { key: 'b' }), retried]);
    head.advance('batched');
    queues.left();
    retried.advance('batched');
    queues.left();
    order(queues);
    head.advance('executing');
    retried.advance('executing');
    retried.requeue();
    queues.pushFront(retried);
    head.requeue();
    queues.pushFront(head);
    expect(order(queues)).toEqual([0, 2, 1]);
  });

  it('keeps a delayed payload put back with pushFront behind the others', () => {
    const delayed = payload(0);
    const queues = queuesOf(1, [delayed, payload(1)]);
    queues.demote(delayed);
    delayed.advance('batched');
    queues.left();
    expect(order(queues)).toEqual([1]);
    delayed.advance('executing');
    delayed.requeue();
    queues.pushFront(delayed);
    expect(order(queues)).toEqual([1, 0]);
  });

  it('drops payloads that left from the order', () => {
    const leaving = payload(1);
    const queues = queuesOf(1, [payload(0), leaving, payload(2)]);
    leaving.advance('batched');
    queues.left();
    expect(order(queues)).toEqual([0, 2]);
  });

  it('keeps liveCount exact as payloads leave by changing state', () => {
    const a = payload(0);
    const b = payload(1);
    const queues = queuesOf(1, [a, b, payload(2)]);
    a.advance('batched');
    queues.left();
    b.fail(new SluiceError('SLUICE_REQUEST_INVALID', 'the client went away'), 'cancelled');
    queues.left();
    expect(queues.liveCount).toBe(1);
  });

  it('keeps order and count exact across many pushes and departures', () => {
    const queues = new PriorityQueues(1);
    const all = Array.from({ length: 600 }, (_, i) => payload(i));
    for (const p of all) queues.push(p);
    for (const p of all.slice(0, 550)) {
      p.advance('batched');
      queues.left();
      queues.first();
    }
    expect([queues.liveCount, order(queues)]).toEqual([50, all.slice(550).map((p) => p.sequence)]);
  });

  it('keeps order and count exact while payloads behind a waiting one leave and more arrive', () => {
    const waiting = payload(0, { key: 'b' });
    const queues = queuesOf(1, [waiting]);
    for (let i = 1; i <= 1000; i++) {
      const p = payload(i);
      queues.push(p);
      if (i % 10 !== 0) {
        expect(order(queues).at(-1)).toBe(i);
        p.advance('batched');
        queues.left();
      }
    }
    expect([order(queues), queues.liveCount]).toEqual([[0, ...Array.from({ length: 100 }, (_, i) => (i + 1) * 10)], 101]);
  });

  it('drains every queued payload in run order and empties the count', () => {
    const queues = queuesOf(2, [payload(0, { priority: 2 }), payload(1, { priority: 1 })]);
    const drained = queues.drain().map((p) => p.sequence);
    expect([drained, queues.liveCount]).toEqual([[1, 0], 0]);
  });

  it('clamps a priority outside the levels to the nearest level', () => {
    const queues = queuesOf(2, [payload(0, { priority: 5 }), payload(1, { priority: 0 }), payload(2, { priority: 2 })]);
    expect(order(queues)).toEqual([1, 0, 2]);
  });
});

describe('PriorityQueues and memory', () => {
  // Collected payloads are what this test is about, so it asks V8 for a collection; the flag only exposes `gc`.
  v8.setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;

  it('lets go of payloads that left the queue, so their requests can be collected', async () => {
    const queues = new PriorityQueues(1);
    const refs: WeakRef<Payload>[] = [];
    // One payload stays queued behind the others, so the lane is never emptied (and reset) as a whole.
    const waiting = payload(1000);
    (() => {
      const batched = Array.from({ length: 100 }, (_, i) => payload(i));
      for (const p of batched) queues.push(p);
      queues.push(waiting);
      for (const p of batched) {
        p.advance('batched');
        queues.left();
        refs.push(new WeakRef(p));
      }
    })();
    expect(queues.first()).toBe(waiting);
    // Finalization is observed across a turn; two collections clear what one leaves to the next.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });
  it('lets go of payloads taken from behind one that still waits, once the queue was looked through', async () => {
    const queues = new PriorityQueues(1);
    const refs: WeakRef<Payload>[] = [];
    const waiting = payload(1000, { key: 'b' });
    queues.push(waiting);
    (() => {
      const taken = Array.from({ length: 100 }, (_, i) => payload(i));
      for (const p of taken) queues.push(p);
      for (const p of taken) {
        p.advance('batched');
        queues.left();
        refs.push(new WeakRef(p));
      }
    })();
    expect(order(queues)).toEqual([1000]);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });

  it('lets go of payloads that passed through a level after one the delay policy moved out of it', async () => {
    const queues = new PriorityQueues(1);
    const refs: WeakRef<Payload>[] = [];
    const delayed = payload(1000);
    queues.push(delayed);
    queues.demote(delayed);
    (() => {
      for (let i = 0; i < 100; i++) {
        const p = payload(i);
        queues.push(p);
        expect(queues.first()).toBe(p);
        p.advance('batched');
        queues.left();
        refs.push(new WeakRef(p));
      }
    })();
    expect(queues.first()).toBe(delayed);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });
});
