import type { AutoscaleSettings } from '../batching/autoscaler.js';
import type { BatchingPolicy, QueuePolicy } from '../batching/batching-policy.js';

/**
 * The run-time settings of one model version: manifest values, overridden by registration parameters,
 * kept in snapshots. Units are in the names (milliseconds) or rows/requests.
 */
export interface VersionSettings {
  readonly minWorkers: number;
  readonly maxWorkers: number;
  /** Largest batch (rows) the scheduler may form; 1 = no batching. */
  readonly batchSize: number;
  /** Extra wait for a fuller batch, in milliseconds (may be fractional). */
  readonly maxBatchDelayMs: number;
  readonly preferredBatchSizes: readonly number[];
  readonly priorityLevels: number;
  readonly defaultPriority: number;
  readonly queuePolicy: QueuePolicy;
  readonly preserveOrdering: boolean;
  readonly responseTimeoutMs: number;
  readonly jobQueueSize: number;
  readonly autoscale: AutoscaleSettings;
}

/** The scheduler's batching policy under `settings`. */
export function batchingPolicyOf(settings: VersionSettings): BatchingPolicy {
  return {
    maxBatchSize: settings.batchSize,
    maxBatchDelayMs: settings.maxBatchDelayMs,
    preferredBatchSizes: settings.preferredBatchSizes,
    priorityLevels: settings.priorityLevels,
    defaultPriority: settings.defaultPriority,
    queuePolicy: settings.queuePolicy,
    preserveOrdering: settings.preserveOrdering,
    queueSize: settings.jobQueueSize,
  };
}

/**
 * Whether the autoscaler moves the worker count between `minWorkers` and `maxWorkers`: whenever the bounds
 * leave it room (max > min), unless the model switched it off. Decided again at every change of bounds.
 */
export function autoscaleEnabled(switchedOff: boolean, minWorkers: number, maxWorkers: number): boolean {
  return !switchedOff && maxWorkers > minWorkers;
}
