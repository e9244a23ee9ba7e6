import type { AutoscaleDecision } from '../../batching/autoscaler.js';
import type { TensorSpec } from '../../sdk/tensor/index.js';
import type { ModelRegistry } from '../../serving/model-registry.js';
import type { ModelVersion } from '../../serving/model-version.js';
import { batchingPolicyOf } from '../../serving/version-settings.js';
import type { BatchingPolicy } from '../../batching/batching-policy.js';

/** A worker as `GET /models/{m}` shows it. */
export interface WorkerView {
  readonly id: string;
  readonly startTime: string;
  readonly status: 'STARTING' | 'READY' | 'BUSY' | 'RETIRING' | 'FAILED';
  readonly device: string;
  readonly jobsServed: number;
  readonly batches: number;
  /** Busy fraction over the last autoscaler look (0..1). */
  readonly utilization: number;
}

/** `GET /models/{m}` for one version: TorchServe's field names and units, plus Sluice's extras. */
export interface ModelVersionView {
  readonly modelName: string;
  readonly modelVersion: string;
  readonly modelUrl: string;
  readonly runtime: string;
  readonly handler: string;
  readonly envelope?: string;
  readonly isDefault: boolean;
  readonly status: string;
  readonly minWorkers: number;
  readonly maxWorkers: number;
  readonly batchSize: number;
  /** Milliseconds. */
  readonly maxBatchDelay: number;
  /** Seconds, as in TorchServe. */
  readonly responseTimeout: number;
  readonly jobQueueSize: number;
  readonly device: string;
  readonly executionProvider: string;
  readonly loadedAt: string;
  readonly workers: readonly WorkerView[];
  readonly jobQueueStatus: { readonly remainingCapacity: number; readonly pendingRequests: number; readonly executing: number };
  /** Batching as configured, and whether the model can batch at all. */
  readonly batching: {
    readonly enabled: boolean;
    readonly maxBatchSize: number;
    readonly maxBatchDelayMs: number;
    readonly preferredBatchSizes: readonly number[];
    readonly priorityLevels: number;
    readonly defaultPriority: number;
    readonly queuePolicy: string;
    readonly preserveOrdering: boolean;
  };
  /** Requests per batch of the most recent batches, oldest first: "why isn't it batching?" */
  readonly recentBatchSizes: readonly number[];
  readonly executor: string;
  readonly autoscale: { readonly enabled: boolean; readonly decisions: readonly AutoscaleDecision[] };
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
}

const STATUS = { starting: 'STARTING', idle: 'READY', busy: 'BUSY', retiring: 'RETIRING', failed: 'FAILED' } as const;

/** The batching policy as described: everything but the queue size, which `jobQueueStatus` shows. */
function describedPolicy(policy: BatchingPolicy): Omit<BatchingPolicy, 'queueSize'> {
  const { queueSize: _shownElsewhere, ...described } = policy;
  return described;
}

/** The describe view of a version. */
export function describeVersion(version: ModelVersion, registry: ModelRegistry): ModelVersionView {
  const s = version.settings;
  const queue = version.queue();
  return {
    modelName: version.name,
    modelVersion: version.version,
    modelUrl: version.origin.url,
    runtime: version.manifest.runtime,
    handler: version.manifest.handler,
    ...(version.manifest.envelope !== undefined ? { envelope: version.manifest.envelope } : {}),
    isDefault: registry.defaultVersionOf(version.name) === version.version,
    status: version.state === 'ready' ? (version.isReady() ? 'READY' : 'NO_WORKERS') : 'UNLOADING',
    minWorkers: s.minWorkers,
    maxWorkers: s.maxWorkers,
    batchSize: s.batchSize,
    maxBatchDelay: s.maxBatchDelayMs,
    responseTimeout: s.responseTimeoutMs / 1000,
    jobQueueSize: s.jobQueueSize,
    device: version.manifest.device,
    executionProvider: version.executorModel.executionProvider,
    executor: version.manifest.executor,
    loadedAt: version.loadedAt.toISOString(),
    workers: version.workers().map((w) => ({
      id: w.id,
      startTime: w.startTime,
      status: STATUS[w.state],
      device: w.device,
      jobsServed: w.jobsServed,
      batches: w.batches,
      utilization: Math.round(w.utilization * 1000) / 1000,
    })),
    // Retried requests go back to the queue even when it is full, so more may wait than it holds.
    jobQueueStatus: { remainingCapacity: Math.max(0, queue.capacity - queue.pending), pendingRequests: queue.pending, executing: queue.executing },
    batching: { enabled: version.batchable && s.batchSize > 1, ...describedPolicy(batchingPolicyOf(s)) },
    recentBatchSizes: version.scheduler.recentBatchSizes(),
    autoscale: { enabled: version.autoscales(), decisions: version.autoscaleDecisions() },
    inputs: version.description.inputs,
    outputs: version.description.outputs,
  };
}
