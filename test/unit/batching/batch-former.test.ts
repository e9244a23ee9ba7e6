import { describe, expect, it } from '@jest/globals';
import { compatibleRows, formBatch, preferredCount, takenByBatches, type BatchLimits } from '../../../src/batching/batch-former.js';
import type { Payload } from '../../../src/batching/payload.js';
import type { PriorityQueues } from '../../../src/batching/priority-queues.js';
import { order, payload, queuesOf } from './support/payloads.js';

const never = (): boolean => false;
const ignore = (): void => undefined;

function picked(queues: PriorityQueues, limits: BatchLimits): number[] {
  return formBatch(queues, limits, never, ignore).map((p) => p.sequence);
}

describe('preferredCount', () => {
  const rows = (...counts: number[]): { rows: number }[] => counts.map((n) => ({ rows: n }));

  it('keeps every payload when their rows are themselves preferred', () => {
    expect(preferredCount(rows(1, 1, 1, 1), [2, 4, 8])).toBe(4);
  });

  it('keeps the payloads that make up the largest preferred size reached', () => {
    expect(preferredCount(rows(1, 1, 1, 1, 1, 1, 1), [2, 4, 8])).toBe(4);
  });

  it('keeps the payloads that make up a preferred size exactly when a larger one is stepped over', () => {
    expect(preferredCount(rows(1, 1, 3), [2, 4])).toBe(2);
  });

  it('keeps every payload when none of their first ones make up a preferred size', () => {
    expect(preferredCount(rows(3, 3), [4])).toBe(2);
  });

  it('keeps every payload when no preferred size is reached', () => {
    expect(preferredCount(rows(1, 1, 1), [4, 8])).toBe(3);
  });

  it('keeps every payload when there are no preferred sizes', () => {
    expect(preferredCount(rows(1, 2, 2), [])).toBe(3);
  });
});

describe('formBatch', () => {
  const limits: BatchLimits = { maxRows: 4, preferredSizes: [] };

  it('takes compatible payloads in queue order', () => {
    const queues = queuesOf(1, [payload(0), payload(1), payload(2)]);
    expect(picked(queues, limits)).toEqual([0, 1, 2]);
  });

  it('stops at maxRows', () => {
    const queues = queuesOf(1, [payload(0), payload(1), payload(2), payload(3), payload(4)]);
    expect(picked(queues, limits)).toEqual([0, 1, 2, 3]);
  });

  it('counts rows, not payloads', () => {
    const queues = queuesOf(1, [payload(0, { rows: 2 }), payload(1, { rows: 3 }), payload(2, { rows: 2 })]);
    expect(picked(queues, limits)).toEqual([0, 2]);
  });

  it('follows priority order', () => {
    const queues = queuesOf(2, [payload(0, { priority: 2 }), payload(1, { priority: 1 })]);
    expect(picked(queues, { maxRows: 1, preferredSizes: [] })).toEqual([1]);
  });

  it('skips incompatible payloads', () => {
    const queues = queuesOf(1, [payload(0, { key: 'a' }), payload(1, { key: 'b' }), payload(2, { key: 'a' })]);
    expect(picked(queues, limits)).toEqual([0, 2]);
  });

  it('leaves skipped payloads queued in their places', () => {
    const queues = queuesOf(1, [payload(0, { key: 'a' }), payload(1, { key: 'b' }), payload(2, { key: 'a' }), payload(3, { key: 'b' })]);
    for (const p of formBatch(queues, limits, never, ignore)) {
      p.advance('batched');
      queues.left();
    }
    expect([order(queues), queues.liveCount]).toEqual([[1, 3], 2]);
  });

  it('returns the picked payloads still queued', () => {
    const queues = queuesOf(1, [payload(0), payload(1)]);
    expect(formBatch(queues, limits, never, ignore).map((p) => p.state)).toEqual(['queued', 'queued']);
  });

  it('runs a head larger than maxRows alone', () => {
    const queues = queuesOf(1, [payload(0, { rows: 6 }), payload(1)]);
    expect(picked(queues, limits)).toEqual([0]);
  });

  it('runs a head without a key alone', () => {
    const queues = queuesOf(1, [payload(0, { key: null }), payload(1, { key: null })]);
    expect(picked(queues, limits)).toEqual([0]);
  });

  it('does not add a payload without a key to a batch', () => {
    const queues = queuesOf(1, [payload(0), payload(1, { key: null }), payload(2)]);
    expect(picked(queues, limits)).toEqual([0, 2]);
  });

  it('cuts a batch back to the largest preferred size it reached', () => {
    const queues = queuesOf(1, [payload(0), payload(1), payload(2)]);
    expect(picked(queues, { maxRows: 4, preferredSizes: [2, 4] })).toEqual([0, 1]);
  });

  it('keeps a batch whole when its requests of several rows step over every preferred size', () => {
    const queues = queuesOf(1, [payload(0, { rows: 3 }), payload(1, { rows: 3 })]);
    expect(picked(queues, { maxRows: 8, preferredSizes: [4] })).toEqual([0, 1]);
  });

  it('keeps a batch that reached no preferred size whole', () => {
    const queues = queuesOf(1, [payload(0), payload(1), payload(2)]);
    expect(picked(queues, { maxRows: 8, preferredSizes: [4] })).toEqual([0, 1, 2]);
  });

  it('hands payloads whose clients left to onGone and skips them', () => {
    const gone = payload(1);
    const queues = queuesOf(1, [payload(0), gone, payload(2)]);
    const handed: Payload[] = [];
    const batch = formBatch(
      queues,
      limits,
      (p) => p === gone,
      (p) => handed.push(p),
    );
    expect([batch.map((p) => p.sequence), handed]).toEqual([[0, 2], [gone]]);
  });

  it('skips a head whose client left', () => {
    const gone = payload(0);
    const queues = queuesOf(1, [gone, payload(1)]);
    expect(formBatch(queues, limits, (p) => p === gone, ignore).map((p) => p.sequence)).toEqual([1]);
  });

  it('picks nothing from empty queues', () => {
    expect(picked(queuesOf(1, []), limits)).toEqual([]);
  });
});

describe('takenByBatches', () => {
  const limits: BatchLimits = { maxRows: 2, preferredSizes: [] };

  it('counts what each batch takes from what the ones before it left', () => {
    const queues = queuesOf(1, [payload(1), payload(2, { key: 'b' }), payload(3), payload(4, { key: 'b' }), payload(5)]);
    expect(takenByBatches(queues, limits, 2)).toBe(4);
  });

  it('counts no more than the queue holds', () => {
    expect(takenByBatches(queuesOf(1, [payload(1), payload(2, { key: null })]), limits, 5)).toBe(2);
  });

  it('leaves every payload queued, in its place', () => {
    const queues = queuesOf(1, [payload(1), payload(2, { key: 'b' }), payload(3)]);
    takenByBatches(queues, limits, 2);
    expect(order(queues)).toEqual([1, 2, 3]);
  });
});

describe('compatibleRows', () => {
  it('sums the rows of queued payloads sharing the head’s key', () => {
    const head = payload(0, { key: 'a', rows: 2 });
    const queues = queuesOf(1, [head, payload(1, { key: 'b', rows: 3 }), payload(2, { key: 'a', rows: 1 })]);
    expect(compatibleRows(queues, head, 8)).toBe(3);
  });

  it('caps the rows at maxRows', () => {
    const head = payload(0, { rows: 3 });
    const queues = queuesOf(1, [head, payload(1, { rows: 3 })]);
    expect(compatibleRows(queues, head, 4)).toBe(4);
  });

  it('counts a head without a key as a full batch', () => {
    const head = payload(0, { key: null });
    expect(compatibleRows(queuesOf(1, [head]), head, 4)).toBe(4);
  });
});
