import type { TensorSpec } from '../../../common/tensor/index.js';
import type { ModelRegistry } from '../../../serving/model-registry.js';
import type { ModelVersion } from '../../../serving/model-version.js';

/** A worker as `GET /models/{m}` shows it. */
export interface WorkerView {
  readonly id: string;
  readonly startTime: string;
  readonly status: 'READY' | 'BUSY' | 'RETIRING';
  readonly jobsServed: number;
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
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
}

const STATUS = { idle: 'READY', busy: 'BUSY', retiring: 'RETIRING' } as const;

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
    executionProvider: version.loaded.executionProvider,
    loadedAt: version.loadedAt.toISOString(),
    workers: version.workers().map((w) => ({ id: w.id, startTime: w.startTime, status: STATUS[w.state], jobsServed: w.jobsServed })),
    jobQueueStatus: { remainingCapacity: queue.capacity - queue.pending, pendingRequests: queue.pending, executing: queue.executing },
    inputs: version.description.inputs,
    outputs: version.description.outputs,
  };
}
