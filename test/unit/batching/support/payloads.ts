import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { Payload } from '../../../../src/batching/payload.js';
import { PriorityQueues } from '../../../../src/batching/priority-queues.js';

/** How a test payload joins batches. */
export interface PayloadShape {
  readonly priority?: number;
  readonly rows?: number;
  /** Batch key; `null` for a payload that runs alone. Default `k`. */
  readonly key?: string | null;
}

/** A queued payload with no job behind it, told apart by `sequence`. */
export function payload(sequence: number, shape: PayloadShape = {}): Payload {
  const key = shape.key === null ? undefined : (shape.key ?? 'k');
  return new Payload(
    { inputs: [], budget: RequestBudget.of() },
    sequence,
    shape.priority ?? 1,
    shape.rows ?? 1,
    key,
    () => undefined,
    () => undefined,
  );
}

/** Queues with `levels` priority levels holding `payloads`, pushed in order. */
export function queuesOf(levels: number, payloads: readonly Payload[]): PriorityQueues {
  const queues = new PriorityQueues(levels);
  for (const p of payloads) queues.push(p);
  return queues;
}

/** Sequence numbers of the payloads `queues` would run next, in order. */
export function order(queues: PriorityQueues): number[] {
  return [...queues.inOrder()].map((p) => p.sequence);
}
