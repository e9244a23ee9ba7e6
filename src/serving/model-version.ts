import { setMaxListeners } from 'node:events';
import { Autoscaler, type AutoscaleDecision } from '../batching/autoscaler.js';
import { DynamicBatchScheduler, type BatchReport } from '../batching/dynamic-batch-scheduler.js';
import { createBatchTracing } from '../telemetry/tracing/batch-tracer.js';
import { InstancePool, type InstanceInfo } from '../batching/instance-pool.js';
import { SluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { Tensor, TensorSpec } from '../sdk/tensor/index.js';
import type { ExecutorModel } from '../sdk/executor/executor.js';
import type { ModelManifest } from '../model-store/index.js';
import type { Handler, HandlerContext } from '../sdk/handler/handler.js';
import type { ModelDescription } from '../sdk/model/model-description.js';
import { requestTracer } from '../telemetry/tracing/request-tracer.js';
import { autoscaleEnabled, batchingPolicyOf, type VersionSettings } from './version-settings.js';
import { deepFrozen, frozenDescription } from './frozen-description.js';

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
  readonly executorModel: ExecutorModel;
  readonly handler: Handler;
  /** The plugin the handler comes from, so that its failures name it; undefined for an embedder's handler. */
  readonly handlerPlugin?: string;
  readonly settings: VersionSettings;
  /** The handler the registration chose instead of the manifest's (kept in snapshots). */
  readonly handlerOverride?: string;
  /** True when the model switched autoscaling off; otherwise it is on whenever max > min, as the bounds change. */
  readonly autoscaleSwitchedOff: boolean;
  /**
   * True when the manifest asks for `workers.min: 0`: with autoscaling on, a request that arrives while no
   * worker runs starts one.
   */
  readonly scalesFromZero?: boolean;
  /** Whether requests can be batched (every input's and output's first dimension is variable). */
  readonly batchable: boolean;
  readonly logger: Logger;
  /** Told about every batch (metrics). */
  readonly onBatch?: (version: ModelVersion, report: BatchReport) => void;
  /** Datatypes the executor accepts beyond the declared ones (e.g. FP32 for FP16 inputs). */
  readonly acceptsDatatype?: (spec: Pick<TensorSpec, 'datatype'>, datatype: TensorSpec['datatype']) => boolean;
  /** Refuses values the executor's runtime cannot take (e.g. BYTES that are not UTF-8 for ONNX Runtime). */
  readonly checkInput?: (tensor: Tensor) => void;
}

/**
 * One registered, loaded version of a model: its executor model and instance pool, handler, scheduler,
 * autoscaler and settings.
 */
export class ModelVersion {
  readonly name: string;
  readonly version: string;
  readonly manifest: ModelManifest;
  readonly origin: ModelOrigin;
  readonly description: ModelDescription;
  readonly handler: Handler;
  /** The plugin the handler comes from; undefined for an embedder's handler. */
  readonly handlerPlugin: string | undefined;
  /** The handler the registration chose instead of the manifest's; undefined when it kept the manifest's. */
  readonly handlerOverride: string | undefined;
  readonly executorModel: ExecutorModel;
  readonly scheduler: DynamicBatchScheduler;
  readonly pool: InstancePool;
  readonly batchable: boolean;
  /** Whether a request may send `datatype` for an input declared as `spec`. */
  readonly acceptsDatatype: (spec: Pick<TensorSpec, 'datatype'>, datatype: TensorSpec['datatype']) => boolean;
  /** Throws for a request tensor whose values the executor's runtime cannot take; a no-op without such limits. */
  readonly checkInput: (tensor: Tensor) => void;
  readonly loadedAt = new Date();
  readonly logger: Logger;
  state: VersionState = 'ready';
  /**
   * Requests the inference service has taken for this version and not yet answered (from their handler's
   * preprocess, or their validated tensors, to their answer): the `sluice_inflight_requests` gauge.
   */
  requestsInFlight = 0;
  private currentSettings: VersionSettings;
  private readonly autoscaleSwitchedOff: boolean;
  /**
   * The manifest asks for `workers.min: 0`: with autoscaling on, a request that arrives while no worker
   * runs starts one (scale to zero and back). A version scaled to zero at run time waits for an operator.
   */
  private readonly scalesFromZero: boolean;
  /** Scaled to zero workers by the management API, and not scaled up since: requests are refused. */
  private heldAtZero = false;
  private readonly autoscaler: Autoscaler;
  private readonly ticker: NodeJS.Timeout;
  private readonly controller = new AbortController();
  private unloading: Promise<void> | undefined;
  private readonly context: HandlerContext;

  constructor(parts: ModelVersionParts) {
    // Every request in a handler thread listens to the version's signal until it ends: as many listeners
    // as requests in flight, which is no leak, so Node's warning at 11 would only break the JSON log.
    setMaxListeners(0, this.controller.signal);
    this.manifest = parts.manifest;
    this.name = parts.description.name;
    this.version = parts.description.version;
    this.origin = parts.origin;
    this.description = frozenDescription(parts.description);
    this.handlerPlugin = parts.handlerPlugin;
    this.handlerOverride = parts.handlerOverride;
    this.handler = parts.handler;
    this.executorModel = parts.executorModel;
    this.batchable = parts.batchable;
    this.acceptsDatatype = parts.acceptsDatatype ?? ((spec, datatype) => spec.datatype === datatype);
    this.checkInput = parts.checkInput ?? (() => undefined);
    this.logger = parts.logger;
    this.currentSettings = parts.settings;
    this.autoscaleSwitchedOff = parts.autoscaleSwitchedOff;
    this.scalesFromZero = parts.scalesFromZero ?? false;
    // Shared by every request of the version, so frozen once here: a handler cannot change it for the others.
    this.context = Object.freeze({
      model: this.description,
      logger: this.logger,
      tracer: requestTracer,
      signal: this.controller.signal,
      config: deepFrozen(parts.manifest.handlerOptions),
      // Each request has a context of its own over this one (`PartialHandlerContext`); this one sends nothing.
      sendPartial: () => Promise.resolve(),
    });
    const s = parts.settings;
    // The pool reports available instances asynchronously, after the scheduler below exists.
    this.pool = new InstancePool(parts.executorModel, `${this.name}-${this.version}`, parts.logger, () => {
      this.scheduler.instanceAvailable();
    });
    this.scheduler = new DynamicBatchScheduler({
      model: this.name,
      version: this.version,
      batchable: parts.batchable,
      pool: this.pool,
      policy: batchingPolicyOf(s),
      wakeFromZero: () => this.wakesFromZero() && this.autoscaler.wake(performance.now()),
      onBatch: (report) => parts.onBatch?.(this, report),
      tracing: createBatchTracing({ model: this.name, version: this.version, executionProvider: parts.executorModel.executionProvider }),
    });
    this.pool.scale(s.minWorkers);
    this.autoscaler = new Autoscaler(
      s.autoscale,
      {
        bounds: () => ({ min: this.currentSettings.minWorkers, max: this.currentSettings.maxWorkers }),
        current: () => this.pool.targetCount,
        queueTimeMs: () => this.scheduler.takeQueueTimeMs(),
        utilization: () => this.pool.sampleUtilization(),
        pending: () => this.scheduler.inflightCount(),
        scaleTo: (count) => {
          this.pool.scale(count);
        },
      },
      parts.logger,
    );
    this.ticker = setInterval(() => {
      this.autoscaler.tick(performance.now());
    }, s.autoscale.intervalMs).unref();
  }

  /** Current settings. */
  get settings(): VersionSettings {
    return this.currentSettings;
  }

  /** Resolves once the first instances are ready (warm); rejects when none could start. */
  started(): Promise<void> {
    return this.pool.started();
  }

  /** The context handed to this version's handler (one object for all its requests). */
  handlerContext(): HandlerContext {
    return this.context;
  }

  /**
   * Changes worker bounds and scales to the new minimum without losing accepted jobs; the autoscaler
   * moves between the bounds from there, on when they leave it room (unless the model switched it off).
   * Scaling to zero answers queued requests with "no workers", and holds the version there until it is
   * scaled up again: no request brings a worker back, whatever the manifest's minimum.
   */
  scaleWorkers(minWorkers: number, maxWorkers: number): void {
    const enabled = autoscaleEnabled(this.autoscaleSwitchedOff, minWorkers, maxWorkers);
    this.currentSettings = { ...this.currentSettings, minWorkers, maxWorkers, autoscale: { ...this.currentSettings.autoscale, enabled } };
    this.autoscaler.setEnabled(enabled);
    this.pool.scale(minWorkers);
    this.heldAtZero = minWorkers === 0;
    if (minWorkers === 0) {
      this.scheduler.refuseQueued(
        new SluiceError('SLUICE_MODEL_NO_WORKERS', `model \`${this.name}\` version \`${this.version}\` was scaled to zero workers while this request waited`),
      );
    }
  }

  /**
   * True when the version can take requests now: a warm instance exists, or none is asked for and a
   * request would start one (scale to zero), so that readiness probes keep such a version in service.
   */
  isReady(): boolean {
    return this.state === 'ready' && (this.pool.readyCount > 0 || (this.pool.targetCount === 0 && this.wakesFromZero()));
  }

  /**
   * Whether the autoscaler acts: the settings' `autoscale.enabled`, except while the management API holds
   * the version at zero workers, where nothing brings a worker back until it is scaled up.
   */
  autoscales(): boolean {
    return this.currentSettings.autoscale.enabled && !this.heldAtZero;
  }

  /** Whether a request that finds no worker asked for starts one. */
  private wakesFromZero(): boolean {
    return this.scalesFromZero && !this.heldAtZero && this.autoscaler.canWake();
  }

  /** Workers and their states. */
  workers(): InstanceInfo[] {
    return this.pool.info();
  }

  /** Queue figures. */
  queue(): { pending: number; executing: number; capacity: number } {
    return this.scheduler.queueInfo();
  }

  /** Recent autoscaling decisions. */
  autoscaleDecisions(): readonly AutoscaleDecision[] {
    return this.autoscaler.decisions();
  }

  /**
   * Stops taking work, answers queued requests with `reason` (default: the model is unloading), waits for
   * running ones and frees instances and the model. Idempotent.
   */
  unload(reason?: SluiceError): Promise<void> {
    this.unloading ??= (async () => {
      this.state = 'unloading';
      clearInterval(this.ticker);
      this.controller.abort();
      await this.scheduler.stop(reason);
      await this.pool.close();
      await this.executorModel.release();
    })();
    return this.unloading;
  }
}
