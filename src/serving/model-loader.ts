import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { SluiceConfig } from '../config/index.js';
import type { BatchReport } from '../batching/dynamic-batch-scheduler.js';
import type { TensorSpec } from '../sdk/tensor/index.js';
import { readLabels, type ModelManifest } from '../model-store/index.js';
import type { ExecutorRegistry } from '../plugins/registry/executor-registry.js';
import type { HandlerRegistry } from '../plugins/registry/handler-registry.js';
import type { NamedRegistry } from '../plugins/registry/named-registry.js';
import type { Envelope } from '../sdk/envelope/envelope.js';
import type { Executor } from '../sdk/executor/executor.js';
import type { ModelRuntime, RuntimeSessionOptions } from '../sdk/runtime/model-runtime.js';
import { ModelVersion, type ModelOrigin } from './model-version.js';
import { resolveTensorSpecs } from './spec-resolution.js';
import { autoscaleEnabled, type VersionSettings } from './version-settings.js';

/** What the loader needs from the server. */
export interface ModelLoaderDeps {
  readonly runtime: ModelRuntime;
  readonly handlers: HandlerRegistry;
  readonly executors: ExecutorRegistry;
  /** The plugin a handler comes from, by handler name; undefined for an embedder's handler. */
  readonly handlerPlugin?: (handler: string) => string | undefined;
  /** Envelopes a manifest's `envelope` may name. */
  readonly envelopes: NamedRegistry<Envelope>;
  readonly config: SluiceConfig;
  readonly logger: Logger;
  /** Told about every batch of every version (metrics). */
  readonly onBatch?: (version: ModelVersion, report: BatchReport) => void;
}

/** Registration-time settings that beat the manifest (management API parameters, snapshots). */
export type SettingOverrides = Partial<VersionSettings> & {
  readonly name?: string;
  /** The handler to use instead of the manifest's (TorchServe's `handler` parameter, mapped to a Sluice handler). */
  readonly handler?: string;
  /**
   * How long loading may take, in milliseconds (TorchServe's `startup_timeout`): the executor's load and the
   * first instances' start. Unlimited when absent.
   */
  readonly loadTimeoutMs?: number;
};

/**
 * `load` within `timeoutMs` (when given), else `SLUICE_MODEL_LOAD_FAILED` naming the manifest and the
 * whole limit (`limitMs`); what a late load brings is released.
 */
async function withinLoadTime<T>(
  load: Promise<T>,
  timeoutMs: number | undefined,
  limitMs: number | undefined,
  manifestPath: string,
  release: (late: T) => Promise<void>,
): Promise<T> {
  if (timeoutMs === undefined) return load;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new SluiceError(
          'SLUICE_MODEL_LOAD_FAILED',
          `${manifestPath}: the model did not load within ${(limitMs ?? timeoutMs) / 1000} s (startup_timeout); give a longer startup_timeout, or none`,
          { timeoutMs: limitMs ?? timeoutMs },
        ),
      );
      // A load that finishes after the limit is released, not leaked.
      load.then(release, () => undefined);
    }, timeoutMs);
  });
  try {
    return await Promise.race([load, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function sessionOptions(manifest: ModelManifest, config: SluiceConfig): RuntimeSessionOptions {
  const gpu = /^gpu(?::(\d+))?$/.exec(manifest.device);
  const providers = manifest.runtimeOptions.executionProviders ?? (gpu ? ['cuda', 'webgpu', 'cpu'] : config.runtime.executionProviders);
  const deviceId = gpu?.[1] !== undefined ? Number(gpu[1]) : 0;
  const { sessionThread, ...runtime } = config.runtime;
  // Only when asked: executors that choose their own thread (the GPU executor) read an absent key as theirs to set.
  return { ...runtime, ...manifest.runtimeOptions, executionProviders: providers, deviceId, ...(sessionThread ? { dedicatedThread: true } : {}) };
}

/**
 * The default priority among `levels` given at registration without a default: the manifest's own, when
 * it declares one among them (the model manager refuses one above them), else the middle level, as the
 * manifest would have it.
 */
function defaultAmong(levels: number, manifest: ModelManifest): number {
  const declared = manifest.declaredBatching.defaultPriority;
  return declared !== undefined && declared <= levels ? declared : Math.ceil(levels / 2);
}

/**
 * Settings from, in rising precedence: server config, manifest, overrides. A default priority above the
 * levels is not corrected here: the model manager refuses such overrides before loading.
 */
export function resolveSettings(manifest: ModelManifest, config: SluiceConfig, overrides: SettingOverrides): VersionSettings {
  const minWorkers = overrides.minWorkers ?? manifest.workers.min;
  const maxWorkers = Math.max(overrides.maxWorkers ?? manifest.workers.max, minWorkers);
  const priorityLevels = overrides.priorityLevels ?? manifest.batching.priorityLevels;
  return {
    minWorkers,
    maxWorkers,
    batchSize: overrides.batchSize ?? manifest.batching.maxBatchSize,
    maxBatchDelayMs: overrides.maxBatchDelayMs ?? manifest.batching.maxBatchDelayMs,
    preferredBatchSizes: overrides.preferredBatchSizes ?? manifest.batching.preferredBatchSizes,
    priorityLevels,
    defaultPriority: overrides.defaultPriority ?? (overrides.priorityLevels !== undefined ? defaultAmong(priorityLevels, manifest) : manifest.batching.defaultPriority),
    queuePolicy: overrides.queuePolicy ?? manifest.batching.queuePolicy,
    preserveOrdering: overrides.preserveOrdering ?? manifest.batching.preserveOrdering,
    responseTimeoutMs: overrides.responseTimeoutMs ?? manifest.responseTimeoutMs ?? config.responseTimeoutMs,
    jobQueueSize: overrides.jobQueueSize ?? manifest.jobQueueSize ?? config.jobQueueSize,
    autoscale: { ...manifest.workers.autoscale, ...overrides.autoscale, enabled: autoscaleEnabled(autoscaleSwitchedOff(manifest, overrides), minWorkers, maxWorkers) },
  };
}

/** True when the registration or else the manifest switches autoscaling off; otherwise it follows the worker bounds. */
export function autoscaleSwitchedOff(manifest: ModelManifest, overrides: SettingOverrides): boolean {
  return (overrides.autoscale?.enabled ?? manifest.declaredAutoscaleEnabled) === false;
}

/**
 * The settings a version loads with: those of {@link resolveSettings}, with the batching defaults of
 * `executor` (when it has any) between the server's and the manifest's.
 */
export function versionSettingsOf(manifest: ModelManifest, executor: Executor | undefined, config: SluiceConfig, overrides: SettingOverrides): VersionSettings {
  const executorBatching = executor?.batchingDefaults?.(manifest.declaredBatching, [...(manifest.inputs ?? []), ...(manifest.outputs ?? [])]);
  return resolveSettings(manifest, config, {
    ...(executorBatching
      ? { batchSize: executorBatching.maxBatchSize, maxBatchDelayMs: executorBatching.maxBatchDelayMs, preferredBatchSizes: executorBatching.preferredBatchSizes }
      : {}),
    ...overrides,
  });
}

/** A model batches when every input and output has a variable first dimension. */
export function isBatchable(inputs: readonly TensorSpec[], outputs: readonly TensorSpec[]): boolean {
  return [...inputs, ...outputs].every((spec) => spec.shape.length > 0 && spec.shape[0] === -1);
}

/**
 * Loads one model version: handler, runtime session (with execution-provider fallback), tensor specs,
 * labels, settings and scheduler. Every failure is a `SluiceError` naming the manifest.
 */
export async function loadModelVersion(
  given: ModelManifest,
  origin: ModelOrigin,
  overrides: SettingOverrides,
  deps: ModelLoaderDeps,
): Promise<ModelVersion> {
  const deadline = overrides.loadTimeoutMs === undefined ? undefined : Date.now() + overrides.loadTimeoutMs;
  const remaining = (): number | undefined => (deadline === undefined ? undefined : Math.max(1, deadline - Date.now()));
  const manifest = overrides.handler !== undefined && overrides.handler !== given.handler ? { ...given, handler: overrides.handler } : given;
  const name = overrides.name ?? manifest.name;
  const logger = deps.logger.child({ model: name, version: manifest.version });
  let handler;
  let executor;
  try {
    handler = deps.handlers.get(manifest.handler);
    executor = deps.executors.get(manifest.executor);
    if (manifest.envelope !== undefined) deps.envelopes.get(manifest.envelope);
  } catch (error) {
    throw new SluiceError('SLUICE_MANIFEST_INVALID', `${manifest.manifestPath}: ${isSluiceError(error) ? error.message : String(error)}`);
  }
  let settings = versionSettingsOf(manifest, executor, deps.config, overrides);
  const executorModel = await withinLoadTime(
    executor.load({
      modelPath: manifest.modelPath,
      runtime: deps.runtime,
      sessionOptions: sessionOptions(manifest, deps.config),
      device: manifest.device,
      maxBatchSize: settings.batchSize,
      executorOptions: manifest.executorOptions,
      logger,
    }),
    remaining(),
    overrides.loadTimeoutMs,
    manifest.manifestPath,
    (late) => late.release(),
  );
  let version: ModelVersion | undefined;
  try {
    const inputs = resolveTensorSpecs('input', manifest.manifestPath, manifest.inputs, executorModel.inputs);
    const outputs = resolveTensorSpecs('output', manifest.manifestPath, manifest.outputs, executorModel.outputs);
    const labels = manifest.labelsPath === undefined ? undefined : await readLabels(manifest.labelsPath);
    const batchable = isBatchable(inputs, outputs);
    if (!batchable && settings.batchSize > 1) {
      const asked = overrides.batchSize ?? manifest.declaredBatching.maxBatchSize;
      if (asked !== undefined && asked > 1) {
        logger.warn('batching is off: the model has an input or output whose first dimension is fixed', { maxBatchSize: settings.batchSize });
      } else {
        // An executor's default (the GPU executor's 32) was chosen before the model's tensors were read;
        // a model that cannot batch keeps 1 rather than a size nobody asked for.
        settings = { ...settings, batchSize: 1, preferredBatchSizes: [] };
      }
    }
    version = new ModelVersion({
      manifest,
      origin,
      ...(executorModel.acceptsDatatype ? { acceptsDatatype: executorModel.acceptsDatatype.bind(executorModel) } : {}),
      ...(executorModel.checkInput ? { checkInput: executorModel.checkInput.bind(executorModel) } : {}),
      description: { name, version: manifest.version, inputs, outputs, ...(labels ? { labels } : {}), directory: manifest.baseDir },
      executorModel,
      handler,
      ...(deps.handlerPlugin?.(manifest.handler) !== undefined ? { handlerPlugin: deps.handlerPlugin(manifest.handler) } : {}),
      settings,
      ...(overrides.handler !== undefined ? { handlerOverride: overrides.handler } : {}),
      autoscaleSwitchedOff: autoscaleSwitchedOff(manifest, overrides),
      scalesFromZero: manifest.workers.min === 0,
      batchable,
      logger,
      ...(deps.onBatch ? { onBatch: deps.onBatch } : {}),
    });
    const loading = version;
    await withinLoadTime(version.started(), remaining(), overrides.loadTimeoutMs, manifest.manifestPath, () => loading.unload());
    logger.info('model version loaded', {
      executor: executor.name,
      executionProvider: executorModel.executionProvider,
      workers: settings.minWorkers,
      maxBatchSize: batchable ? settings.batchSize : 1,
      handler: manifest.handler,
    });
    return version;
  } catch (error) {
    if (version) await version.unload();
    else await executorModel.release();
    if (isSluiceError(error)) throw error;
    throw new SluiceError('SLUICE_MODEL_LOAD_FAILED', `${manifest.manifestPath}: the model's instances could not start: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
  }
}
