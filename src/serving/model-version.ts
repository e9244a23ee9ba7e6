import { FifoScheduler, type QueueInfo } from '../batching/fifo-scheduler.js';
import type { InstanceInfo } from '../batching/model-instance.js';
import type { SluiceError } from '../common/errors/index.js';
import type { Logger } from '../common/logger.js';
import type { Executor } from '../executors/executor.js';
import type { ModelManifest } from '../model-store/index.js';
import type { Handler, HandlerContext } from '../plugins/sdk/handler.js';
import type { ModelDescription } from '../plugins/sdk/model-description.js';
import type { LoadedModel } from '../runtime/model-runtime.js';
import type { VersionSettings } from './version-settings.js';

/** Where a model version was registered from. */
export interface ModelOrigin {
  /** The `url` as the user gave it (a model-store name or an allowed URL). */
  readonly url: string;
  /** The directory holding the version's `model.yaml` (an extracted archive lives in the store). */
  readonly dir: string;
}

/** Lifecycle of a version: serving, or on its way out. */
export type VersionState = 'ready' | 'unloading';

/** Everything a model version needs to serve, built by the model loader. */
export interface ModelVersionParts {
  readonly manifest: ModelManifest;
  readonly origin: ModelOrigin;
  readonly description: ModelDescription;
  readonly loaded: LoadedModel;
  readonly handler: Handler;
  readonly executor: Executor;
  readonly settings: VersionSettings;
  readonly logger: Logger;
}

/** One registered, loaded version of a model: its session, handler, scheduler and settings. */
export class ModelVersion {
  readonly name: string;
  readonly version: string;
  readonly manifest: ModelManifest;
  readonly origin: ModelOrigin;
  readonly description: ModelDescription;
  readonly handler: Handler;
  readonly loaded: LoadedModel;
  readonly scheduler: FifoScheduler;
  readonly loadedAt = new Date();
  readonly logger: Logger;
  state: VersionState = 'ready';
  private currentSettings: VersionSettings;
  private readonly controller = new AbortController();
  private unloading: Promise<void> | undefined;

  constructor(parts: ModelVersionParts) {
    this.manifest = parts.manifest;
    this.name = parts.description.name;
    this.version = parts.description.version;
    this.origin = parts.origin;
    this.description = parts.description;
    this.handler = parts.handler;
    this.loaded = parts.loaded;
    this.logger = parts.logger;
    this.currentSettings = parts.settings;
    const { executor, loaded } = parts;
    this.scheduler = new FifoScheduler({
      model: this.name,
      version: this.version,
      queueSize: parts.settings.jobQueueSize,
      instances: parts.settings.minWorkers,
      runBatch: (_instance, jobs) => executor.execute(loaded, jobs),
    });
  }

  /** Current settings. */
  get settings(): VersionSettings {
    return this.currentSettings;
  }

  /** The context handed to this version's handler. */
  handlerContext(signal?: AbortSignal): HandlerContext {
    return { model: this.description, logger: this.logger, signal: signal ?? this.controller.signal, config: {} };
  }

  /** Changes worker bounds and rescales to the new minimum without losing accepted jobs. */
  scaleWorkers(minWorkers: number, maxWorkers: number): void {
    this.currentSettings = { ...this.currentSettings, minWorkers, maxWorkers };
    this.scheduler.scale(minWorkers);
  }

  /** True when the version can take requests. */
  isReady(): boolean {
    return this.state === 'ready' && this.scheduler.activeInstances() > 0;
  }

  /** Workers and their states. */
  workers(): InstanceInfo[] {
    return this.scheduler.instanceInfo();
  }

  /** Queue figures. */
  queue(): QueueInfo {
    return this.scheduler.queueInfo();
  }

  /**
   * Stops taking work, answers queued requests with `reason` (default: the model is unloading), waits for
   * running ones and frees the session. Idempotent.
   */
  unload(reason?: SluiceError): Promise<void> {
    this.unloading ??= (async () => {
      this.state = 'unloading';
      this.controller.abort();
      await this.scheduler.stop(reason);
      await this.loaded.release();
    })();
    return this.unloading;
  }
}
