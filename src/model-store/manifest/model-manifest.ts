import type { TensorSpec } from '../../sdk/tensor/index.js';
import type { AutoscaleSettings } from '../../batching/autoscaler.js';
import type { RuntimeSessionOptions } from '../../sdk/runtime/model-runtime.js';

/** Where a model runs: the CPU, the first GPU, or GPU number `n`. */
export type DeviceName = 'cpu' | 'gpu' | `gpu:${number}`;

/** How requests are grouped into batches for one model; every field is filled in. */
export interface BatchingSettings {
  readonly maxBatchSize: number;
  /** May be fractional (sub-millisecond delays). */
  readonly maxBatchDelayMs: number;
  /** Each at most {@link maxBatchSize}; empty when the manifest gives none. */
  readonly preferredBatchSizes: readonly number[];
  /** Priority levels requests may use, 1 (highest) to this. */
  readonly priorityLevels: number;
  /** Level of requests that give none. */
  readonly defaultPriority: number;
  /** What happens to a queued request whose own timeout passes. */
  readonly queuePolicy: 'reject' | 'delay';
  /** Answer in arrival order. */
  readonly preserveOrdering: boolean;
}

/** How many workers serve one model; `max >= min` always holds. */
export interface WorkerSettings {
  readonly min: number;
  readonly max: number;
  readonly autoscale: AutoscaleSettings;
}

/** `model.yaml` exactly as `schemas/model.schema.json` accepts it, before defaults. */
export interface RawModelManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly runtime?: 'onnx';
  readonly model: string;
  readonly handler?: string;
  readonly handlerOptions?: Readonly<Record<string, unknown>>;
  readonly envelope?: string;
  readonly labels?: string;
  readonly inputs?: readonly TensorSpec[];
  readonly outputs?: readonly TensorSpec[];
  readonly batching?: Partial<BatchingSettings>;
  readonly workers?: Partial<Omit<WorkerSettings, 'autoscale'>> & { readonly autoscale?: Partial<AutoscaleSettings> };
  readonly executor?: string;
  readonly executorOptions?: Readonly<Record<string, unknown>>;
  readonly device?: DeviceName;
  readonly responseTimeoutMs?: number;
  readonly jobQueueSize?: number;
  readonly runtimeOptions?: Omit<RuntimeSessionOptions, 'deviceId'>;
}

/**
 * A validated model manifest with every default applied and every file located. Produced by
 * `loadManifest`; deeply frozen.
 */
export interface ModelManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly runtime: 'onnx';
  /** The `model` key as written (relative to {@link baseDir}). */
  readonly model: string;
  /** Absolute path of the model file; a regular file inside {@link baseDir}, or inside an installed package for `npm:` references. */
  readonly modelPath: string;
  readonly handler: string;
  /** The handler's own settings, as written; the handler validates them. */
  readonly handlerOptions: Readonly<Record<string, unknown>>;
  readonly envelope?: string;
  /** The `labels` key as written, when given. */
  readonly labels?: string;
  /** Absolute path of the labels file, when given; located like {@link modelPath}. */
  readonly labelsPath?: string;
  readonly inputs?: readonly TensorSpec[];
  readonly outputs?: readonly TensorSpec[];
  readonly batching: BatchingSettings;
  /** The batching keys the manifest itself sets (executors fill the others with their own defaults). */
  readonly declaredBatching: Readonly<Partial<Pick<BatchingSettings, 'maxBatchSize' | 'maxBatchDelayMs' | 'preferredBatchSizes' | 'defaultPriority'>>>;
  readonly workers: WorkerSettings;
  /**
   * `workers.autoscale.enabled` when the manifest itself sets it. Unset, autoscaling follows the worker
   * bounds, also after they are changed at run time.
   */
  readonly declaredAutoscaleEnabled?: boolean;
  /** The executor that runs batches (`cpu` unless a plugin's is named). */
  readonly executor: string;
  /** The executor's own settings, as written. */
  readonly executorOptions: Readonly<Record<string, unknown>>;
  readonly device: DeviceName;
  /** Unset means the server-wide setting applies. */
  readonly responseTimeoutMs?: number;
  /** Unset means the server-wide setting applies. */
  readonly jobQueueSize?: number;
  /** Only the keys the manifest sets; the server-wide runtime settings fill the rest. */
  readonly runtimeOptions: Omit<RuntimeSessionOptions, 'deviceId'>;
  /** Absolute path of the directory that holds `model.yaml`. */
  readonly baseDir: string;
  /**
   * Absolute path of `model.yaml`; of the model file for a manifest made for a directory without one
   * (`loadModelDirectory`). Messages about the manifest name it.
   */
  readonly manifestPath: string;
}

/** The manifest's file name inside a model directory. */
export const MANIFEST_FILE_NAME = 'model.yaml';

/**
 * The word the management APIs read as "every version" (`GET /models/{name}/all`), so no version may be
 * called so: a version of that name could not be described on its own.
 */
export const ALL_VERSIONS = 'all';
