/** What happens to a queued request whose own timeout (`x-sluice-timeout-ms`, OIP `timeout`) passes. */
export type QueuePolicy = 'reject' | 'delay';

/** The batching and queueing settings of one model version, every field filled in. */
export interface BatchingPolicy {
  /** Most rows (requests' first dimensions summed) one run takes; 1 turns batching off. */
  readonly maxBatchSize: number;
  /** Extra wait, counted from the oldest queued request's arrival, for a fuller batch; 0 = none. */
  readonly maxBatchDelayMs: number;
  /** Row counts the model runs best at; a batch that reaches one is cut to it. */
  readonly preferredBatchSizes: readonly number[];
  /** Priority levels; requests give `1` (highest) to this number. */
  readonly priorityLevels: number;
  /** Level of requests that give none. */
  readonly defaultPriority: number;
  /** `reject`: a queued request past its own timeout is answered 504; `delay`: it is moved behind the others. */
  readonly queuePolicy: QueuePolicy;
  /** Answer requests in arrival order even when batches finish out of order. */
  readonly preserveOrdering: boolean;
  /** Requests that may wait; one more is refused with 503. */
  readonly queueSize: number;
}
