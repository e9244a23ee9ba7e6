import { SluiceError, isSluiceError } from '../common/errors/index.js';
import type { Logger } from '../common/logger.js';
import type { SluiceConfig } from '../config/index.js';
import type { Executor } from '../executors/executor.js';
import { readLabels, type ModelManifest } from '../model-store/index.js';
import type { HandlerRegistry } from '../plugins/registry/handler-registry.js';
import type { ModelRuntime, RuntimeSessionOptions } from '../runtime/model-runtime.js';
import { ModelVersion, type ModelOrigin } from './model-version.js';
import { resolveTensorSpecs } from './spec-resolution.js';
import type { VersionSettings } from './version-settings.js';

/** What the loader needs from the server. */
export interface ModelLoaderDeps {
  readonly runtime: ModelRuntime;
  readonly handlers: HandlerRegistry;
  readonly executor: Executor;
  readonly config: SluiceConfig;
  readonly logger: Logger;
}

/** Registration-time settings that beat the manifest (management API parameters, snapshots). */
export type SettingOverrides = Partial<VersionSettings> & { readonly name?: string };

function sessionOptions(manifest: ModelManifest, config: SluiceConfig): RuntimeSessionOptions {
  const gpu = /^gpu(?::(\d+))?$/.exec(manifest.device);
  const providers = manifest.runtimeOptions.executionProviders ?? (gpu ? ['cuda', 'webgpu', 'cpu'] : config.runtime.executionProviders);
  const deviceId = gpu?.[1] !== undefined ? Number(gpu[1]) : 0;
  return { ...config.runtime, ...manifest.runtimeOptions, executionProviders: providers, deviceId };
}

/** Settings from, in rising precedence: server config, manifest, overrides. */
export function resolveSettings(manifest: ModelManifest, config: SluiceConfig, overrides: SettingOverrides): VersionSettings {
  const minWorkers = overrides.minWorkers ?? manifest.workers.min;
  return {
    minWorkers,
    maxWorkers: Math.max(overrides.maxWorkers ?? manifest.workers.max, minWorkers),
    batchSize: overrides.batchSize ?? manifest.batching.maxBatchSize,
    maxBatchDelayMs: overrides.maxBatchDelayMs ?? manifest.batching.maxBatchDelayMs,
    responseTimeoutMs: overrides.responseTimeoutMs ?? manifest.responseTimeoutMs ?? config.responseTimeoutMs,
    jobQueueSize: overrides.jobQueueSize ?? manifest.jobQueueSize ?? config.jobQueueSize,
  };
}

/**
 * Loads one model version: handler, runtime session (with execution-provider fallback), tensor specs,
 * labels, settings and scheduler. Every failure is a `SluiceError` naming the manifest.
 */
export async function loadModelVersion(
  manifest: ModelManifest,
  origin: ModelOrigin,
  overrides: SettingOverrides,
  deps: ModelLoaderDeps,
): Promise<ModelVersion> {
  const name = overrides.name ?? manifest.name;
  const logger = deps.logger.child({ model: name, version: manifest.version });
  let handler;
  try {
    handler = deps.handlers.get(manifest.handler);
  } catch (error) {
    throw new SluiceError('SLUICE_MANIFEST_INVALID', `${manifest.manifestPath}: ${isSluiceError(error) ? error.message : String(error)}`);
  }
  const loaded = await deps.runtime.load(manifest.modelPath, sessionOptions(manifest, deps.config));
  try {
    const inputs = resolveTensorSpecs('input', manifest.manifestPath, manifest.inputs, loaded.inputs);
    const outputs = resolveTensorSpecs('output', manifest.manifestPath, manifest.outputs, loaded.outputs);
    const labels = manifest.labelsPath === undefined ? undefined : await readLabels(manifest.labelsPath);
    const version = new ModelVersion({
      manifest,
      origin,
      description: { name, version: manifest.version, inputs, outputs, ...(labels ? { labels } : {}) },
      loaded,
      handler,
      executor: deps.executor,
      settings: resolveSettings(manifest, deps.config, overrides),
      logger,
    });
    logger.info('model version loaded', {
      executionProvider: loaded.executionProvider,
      workers: version.settings.minWorkers,
      handler: manifest.handler,
    });
    return version;
  } catch (error) {
    await loaded.release();
    throw error;
  }
}
