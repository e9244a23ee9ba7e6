import type { Payload } from './payload.js';
import type { PriorityQueues } from './priority-queues.js';

/** Limits a batch is formed within. */
export interface BatchLimits {
  /** Most rows one run may take. */
  readonly maxRows: number;
  /** Row counts the model runs best at, ascending; empty when none. */
  readonly preferredSizes: readonly number[];
}

/**
 * How many of `picked`, from the first, to keep: as many as make up the largest preferred size exactly,
 * or all of them when none does (requests of several rows may step over every preferred size; cut to a
 * size that is not preferred either, the batch would only run smaller and leave the rest a run of its own).
 */
export function preferredCount(picked: readonly { readonly rows: number }[], preferredSizes: readonly number[]): number {
  if (preferredSizes.length === 0) return picked.length;
  let rows = 0;
  let keep = 0;
  for (let i = 0; i < picked.length; i++) {
    rows += picked[i]?.rows ?? 0;
    if (preferredSizes.includes(rows)) keep = i + 1;
  }
  return keep === 0 ? picked.length : keep;
}

/**
 * Picks the next batch: the first payload in queue order, then every later compatible payload (same
 * batch key) in queue order while the rows fit, cut back to the largest preferred size its first payloads
 * make up ({@link preferredCount}).
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
  picked.length = preferredCount(picked, limits.preferredSizes);
  return picked;
}

/**
 * How many queued payloads `batches` batches formed now would take, each formed by {@link formBatch} from
 * what the batches before it left. Changes nothing; payloads whose clients left count as staying. A pass
 * over the queue per batch: not for the hot path.
 */
export function takenByBatches(queues: PriorityQueues, limits: BatchLimits, batches: number): number {
  const taken = new Set<Payload>();
  const isTaken = (p: Payload): boolean => taken.has(p);
  const keep = (): void => undefined;
  for (let b = 0; b < batches; b++) {
    const picked = formBatch(queues, limits, isTaken, keep);
    if (picked.length === 0) break;
    for (const payload of picked) taken.add(payload);
  }
  return taken.size;
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
