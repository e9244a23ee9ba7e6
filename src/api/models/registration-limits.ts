import { MAX_BATCH_DELAY_MS, MAX_BATCH_SIZE } from '../../serving/batching-limits.js';

/**
 * Bounds of the registration and scaling parameters both management APIs take (REST `POST /models` and
 * `PUT /models/...`, gRPC `RegisterModel` and `ScaleWorker`), in one place so that both accept the same
 * values.
 */
export const REGISTRATION_LIMITS = {
  /** `batch_size`: rows per run. */
  maxBatchSize: MAX_BATCH_SIZE,
  /** `max_batch_delay`, in milliseconds (one hour). */
  maxBatchDelayMs: MAX_BATCH_DELAY_MS,
  /** `response_timeout`, in seconds (one day). */
  maxResponseTimeoutS: 86_400,
  /** `initial_workers`, `min_worker`, `max_worker`. */
  maxWorkers: 256,
} as const;
