/** The run-time settings of one model version; changed by the management API and kept in snapshots. */
export interface VersionSettings {
  readonly minWorkers: number;
  readonly maxWorkers: number;
  /** Largest batch the scheduler may form. */
  readonly batchSize: number;
  /** Extra wait for a fuller batch, in milliseconds (may be fractional). */
  readonly maxBatchDelayMs: number;
  readonly responseTimeoutMs: number;
  readonly jobQueueSize: number;
}
