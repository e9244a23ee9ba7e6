import type { Payload } from './payload.js';
import type { PriorityQueues } from './priority-queues.js';

/** Limits a batch is formed within. */
export interface BatchLimits {
  /** Most rows one run may take. */
  readonly maxRows: number;
  /** Row counts the model runs best at, ascending; empty when none. */
  readonly preferredSizes: readonly number[];
}

/** The largest preferred size that `rows` reaches, or `rows` itself when none is reached or it is preferred. */
export function preferredCut(rows: number, preferredSizes: readonly number[]): number {
  if (preferredSizes.includes(rows)) return rows;
  let best = 0;
  for (const size of preferredSizes) if (size <= rows && size > best) best = size;
  return best > 0 ? best : rows;
}

/**
 * Picks the next batch: the first payload in queue order, then every later compatible payload (same
 * batch key) in queue order while the rows fit, cut back to a preferred size when one is reached.
 * Incompatible payloads keep their places. Payloads `isGone` reports (clients that left) are handed to
 * `onGone` and skipped. Returns the picked payloads, still in state `queued`.
 */
export function formBatch(queues: PriorityQueues, limits: BatchLimits, isGone: (p: Payload) => boolean, onGone: (p: Payload) => void): Payload[] {
  let head: Payload | undefined;
  const picked: Payload[] = [];
  let rows = 0;
  for (const payload of queues.inOrder()) {
    if (isGone(payload)) {
      onGone(payload);
      continue;
    }
    if (head === undefined) {
      head = payload;
      picked.push(payload);
      rows = payload.rows;
      if (payload.batchKey === undefined || rows >= limits.maxRows) break;
      continue;
    }
    if (payload.batchKey !== head.batchKey || rows + payload.rows > limits.maxRows) continue;
    picked.push(payload);
    rows += payload.rows;
    if (rows === limits.maxRows) break;
  }
  const target = preferredCut(rows, limits.preferredSizes);
  while (rows > target && picked.length > 1) {
    const last = picked.pop();
    rows -= last?.rows ?? 0;
  }
  return picked;
}

/** Rows of queued payloads that could join a batch headed by `head` (including it), capped at `maxRows`. */
export function compatibleRows(queues: PriorityQueues, head: Payload, maxRows: number): number {
  if (head.batchKey === undefined) return maxRows;
  let rows = 0;
  for (const payload of queues.inOrder()) {
    if (payload.batchKey === head.batchKey) rows += payload.rows;
    if (rows >= maxRows) return maxRows;
  }
  return rows;
}
