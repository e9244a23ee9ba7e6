import { SluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { SluiceConfig } from '../config/index.js';
import { SnapshotStore } from '../model-store/index.js';
import { ExecutorRegistry } from '../plugins/registry/executor-registry.js';
import { HandlerRegistry } from '../plugins/registry/handler-registry.js';
import { HookBus } from '../plugins/registry/hook-bus.js';
import { NamedRegistry } from '../plugins/registry/named-registry.js';
import type { Envelope } from '../sdk/envelope/envelope.js';
import type { Executor } from '../sdk/executor/executor.js';
import type { Handler } from '../sdk/handler/handler.js';
import type { NodeHandler } from '../sdk/node-handler/node-handler.js';
import { NodeHandlerRegistry } from '../plugins/registry/node-handler-registry.js';
import type { NodeEndEvent } from '../workflow/index.js';
import { createSchedulerModelCaller } from '../workflow/serving/scheduler-model-caller.js';
import { createServerCatalog } from '../workflow/serving/server-catalog.js';
import { WorkflowManager, type WorkflowStartupReport } from '../workflow/serving/workflow-manager.js';
import { WorkflowRegistry } from '../workflow/serving/workflow-registry.js';
import { WorkflowService } from '../workflow/serving/workflow-service.js';
import type { ModelRuntime } from '../sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../runtime/onnx/index.js';
import { PrometheusServingMetrics } from '../telemetry/metrics/prometheus-serving-metrics.js';
import type { ServingMetrics } from '../telemetry/metrics/serving-metrics.js';
import { Telemetry } from '../telemetry/tracing/telemetry.js';
import { createWorkflowObserver } from '../telemetry/tracing/workflow-tracer.js';
import { HandlerPool, type HandlerPoolOptions } from './handler-pool/index.js';
import { InferenceService } from './inference-service.js';
import { ModelManager, type StartupReport } from './model-manager.js';
import { ModelRegistry } from './model-registry.js';
import { ModelSourceResolver } from './model-source-resolver.js';
import { sweepStaleTemporaries } from './stale-temporaries-sweep.js';
import type { InferenceCore } from './core-interfaces/inference-core.js';
import type { MetricsSource } from './core-interfaces/metrics-source.js';
import type { ModelAdministration } from './core-interfaces/model-administration.js';
import type { ServerStatus } from './core-interfaces/server-status.js';
import type { WorkflowAdministration } from './core-interfaces/workflow-administration.js';

function frozenRegistry<T extends { readonly name: string }>(kind: string): NamedRegistry<T> {
  const registry = new NamedRegistry<T>(kind);
  registry.freeze();
  return registry;
}

/** How long an undrained shutdown still waits for sessions to be released. */
const UNLOAD_GRACE_MS = 1000;

/** What a serving core is built from; everything but config and logger has a default. */
export interface ServingCoreOptions {
  readonly config: SluiceConfig;
  readonly logger: Logger;
  readonly serverVersion: string;
  /** Model handlers; `plugin` names the plugin a handler came from, so that its failures name it. */
  readonly handlers: readonly { readonly handler: Handler; readonly origin: string; readonly plugin?: string }[];
  /** Executors by name (`cpu` comes from the cpu-executor plugin). */
  readonly executors?: readonly { readonly executor: Executor; readonly origin: string }[];
  /** Request/response envelopes, by name (frozen). */
  readonly envelopes?: NamedRegistry<Envelope>;
  /** Observers of model and inference events. */
  readonly hooks?: HookBus;
  /** Workflow node handlers (`handler:` nodes). */
  readonly nodeHandlers?: readonly { readonly handler: NodeHandler; readonly origin: string }[];
  readonly runtime?: ModelRuntime;
  /** The server's tracer and meter providers (default: tracing off, the Prometheus page only). */
  readonly telemetry?: Telemetry;
  /** Replaces the metrics recorded through {@link telemetry}. */
  readonly metrics?: ServingMetrics;
  /** When false the snapshot is neither read nor written. */
  readonly snapshots?: boolean;
  /** The worker threads of CPU-heavy handlers (default: `max(1, cores - 1)` threads, closed within `shutdownTimeoutMs`). */
  readonly handlerPool?: HandlerPoolOptions;
}

/**
 * The transport-free heart of the server: models, inference, management and metrics. The REST and gRPC
 * layers are thin adapters over it; it knows nothing of HTTP. Each API sees it through the narrow
 * interface of what that API needs (`core-interfaces/`), never whole.
 */
export class ServingCore implements InferenceCore, ServerStatus, ModelAdministration, WorkflowAdministration, MetricsSource {
  readonly config: SluiceConfig;
  readonly logger: Logger;
  readonly serverVersion: string;
  readonly registry = new ModelRegistry();
  readonly metrics: ServingMetrics;
  readonly telemetry: Telemetry;
  readonly inference: InferenceService;
  readonly manager: ModelManager;
  readonly workflows = new WorkflowRegistry();
  readonly workflowManager: WorkflowManager;
  readonly workflowService: WorkflowService;
  readonly nodeHandlers = new NodeHandlerRegistry();
  /** Request/response envelopes by name. */
  readonly envelopes: NamedRegistry<Envelope>;
  /** Observers of model and inference events (plugin hooks). */
  readonly hooks: HookBus;
  /** Runs the stages of CPU-heavy handlers off the event loop; started on first use. */
  readonly handlerPool: HandlerPool;
  private stopped = false;
  /** Set once {@link start} has loaded what start-up serves: the ports open before, and answer not-ready until then. */
  private started = false;
  /** Set by {@link stopReadiness}: the server still serves, but tells load balancers to stop sending. */
  private leaving = false;

  constructor(options: ServingCoreOptions) {
    this.config = options.config;
    this.logger = options.logger;
    this.serverVersion = options.serverVersion;
    this.telemetry = options.telemetry ?? new Telemetry();
    this.metrics = options.metrics ?? new PrometheusServingMetrics(this.telemetry, { torchserveHostMetrics: true });
    this.envelopes = options.envelopes ?? frozenRegistry<Envelope>('envelope');
    this.hooks = options.hooks ?? new HookBus(options.logger);
    this.hooks.freeze();
    const hooks = this.hooks;
    const metrics = this.metrics;
    // A version's series live as long as it does: versions that come and go must not grow the metrics page.
    this.registry.observe({
      added: (version) => { metrics.versionAdded(version.name, version.version); },
      removed: (version) => { metrics.versionRemoved(version.name, version.version); },
    });
    this.registry.observe({
      added: (version) => { hooks.emit('onModelLoad', { model: version.description }); },
      removed: (version) => { hooks.emit('onModelUnload', { model: version.description }); },
    });
    this.handlerPool = new HandlerPool({ closeTimeoutMs: options.config.shutdownTimeoutMs, ...options.handlerPool }, options.logger);
    const handlers = new HandlerRegistry();
    const handlerPlugins = new Map<string, string>();
    for (const { handler, origin, plugin } of options.handlers) {
      handlers.register(this.handlerPool.route(handler), origin);
      if (plugin !== undefined) handlerPlugins.set(handler.name, plugin);
    }
    handlers.freeze();
    const executors = new ExecutorRegistry();
    for (const { executor, origin } of options.executors ?? []) executors.register(executor, origin);
    executors.freeze();
    this.metrics.watchUtilization(() =>
      this.registry.all().flatMap((v) =>
        v.workers().map((w) => ({
          model: v.name,
          version: v.version,
          instance: w.id,
          utilization: w.utilization,
          ...(w.device !== 'pending' ? { device: w.device } : {}),
          ...(w.loadMs !== undefined ? { loadMs: w.loadMs } : {}),
        })),
      ),
    );
    this.metrics.watchLoad(() =>
      this.registry.all().map((v) => ({ model: v.name, version: v.version, queued: v.queue().pending, inFlight: v.requestsInFlight })),
    );
    this.telemetry.observeProcess();
    this.inference = new InferenceService(this.registry, this.metrics, this.hooks);
    const snapshotsEnabled = (options.snapshots ?? true) && options.config.snapshot.enabled;
    this.manager = new ModelManager({
      registry: this.registry,
      sources: new ModelSourceResolver(options.config, options.logger),
      loader: {
        runtime: options.runtime ?? new OnnxRuntime(),
        handlers,
        handlerPlugin: (name) => handlerPlugins.get(name),
        executors,
        envelopes: this.envelopes,
        config: options.config,
        logger: options.logger,
        onBatch: (version, report) => {
          this.metrics.batchCompleted({ model: version.name, version: version.version, size: report.size, computeUs: report.computeUs });
        },
      },
      config: options.config,
      snapshots: snapshotsEnabled ? new SnapshotStore(options.config.snapshot.file) : undefined,
      logger: options.logger,
      workflowsForSnapshot: () => this.workflowManager.snapshotEntries(),
      workflowNamed: (name) => this.workflows.find(name) !== undefined,
      modelUses: (name) => this.workflows.modelUses(name),
    });
    for (const { handler, origin } of options.nodeHandlers ?? []) this.nodeHandlers.register(handler, origin);
    this.nodeHandlers.freeze();
    const catalog = createServerCatalog({ models: this.registry, handlers: this.nodeHandlers, workflows: this.workflows });
    this.workflowManager = new WorkflowManager({
      registry: this.workflows,
      catalog,
      config: options.config,
      logger: options.logger,
      commit: (change) => this.manager.commitWorkflows(change),
      ensureModels: (request) => this.manager.ensureRegistered(request),
      removeModel: (name, version) => this.manager.unregister(name, version),
      inference: this.inference,
      modelNamed: (name) => this.registry.has(name),
    });
    const nodeEnded = hooks.has('onWorkflowNodeEnd')
      ? (event: NodeEndEvent): void => {
          hooks.emit('onWorkflowNodeEnd', event);
        }
      : undefined;
    const services = {
      models: createSchedulerModelCaller(this.inference),
      handler: (name: string) => this.nodeHandlers.find(name),
      workflow: (name: string) => this.workflows.find(name)?.plan,
      logger: options.logger,
    };
    this.workflowService = new WorkflowService(this.workflows, services, createWorkflowObserver(this.metrics, nodeEnded), options.config.responseTimeoutMs);
  }

  /**
   * Loads what start-up serves: the models (snapshot or configuration), then the workflows (the
   * snapshot's, or the configured ones), once the stale temporaries of a server killed mid-work are
   * removed (`sweepStaleTemporaries`). It writes no snapshot; {@link serving} does.
   */
  async start(restoreSnapshot: boolean): Promise<StartupReport & { readonly workflows: WorkflowStartupReport }> {
    // Only while the models load: the workflows' start-up looks models up and must see them as they are.
    this.registry.setStartingUp(true);
    let models: StartupReport;
    try {
      await sweepStaleTemporaries(this.config, this.logger);
      models = await this.manager.startup(restoreSnapshot);
    } finally {
      this.registry.setStartingUp(false);
    }
    const workflows = await this.workflowManager.startup(models.restoredFromSnapshot ? (models.snapshotWorkflows ?? []) : undefined);
    this.started = true;
    return { ...models, workflows };
  }

  /** Called once every port listens: writes the snapshot of what start-up loaded, and after every later change. */
  serving(): Promise<void> {
    return this.manager.serving();
  }

  /** TorchServe's health rule: every version has at least its minimum of workers. */
  isHealthy(): boolean {
    return this.registry.all().every((v) => v.state !== 'ready' || v.pool.activeCount >= v.settings.minWorkers);
  }

  /**
   * OIP readiness: start-up has loaded its models and workflows, no stop has begun (nor its drain delay),
   * and every version is ready to take requests.
   */
  isReady(): boolean {
    return this.started && !this.leaving && !this.stopped && this.registry.all().every((v) => v.isReady());
  }

  /**
   * Answers not-ready from now on while everything else keeps serving: the first step of a stop with a
   * drain delay (`shutdownDelayMs`), so load balancers stop sending before the ports close.
   */
  stopReadiness(): void {
    this.leaving = true;
  }

  /**
   * Graceful stop: every version stops taking new work and finishes what it accepted, bounded by
   * `timeoutMs`; then sessions are released. Answers true when everything drained in time.
   */
  async shutdown(timeoutMs: number): Promise<boolean> {
    this.stopped = true;
    const versions = this.registry.all();
    const until = performance.now() + timeoutMs;
    // Handler requests first: one still in its preprocess is in no queue yet, and must still be let in.
    const answered = await this.inference.stopTaking(timeoutMs);
    const left = Math.max(0, until - performance.now());
    const drained = (await Promise.all(versions.map((v) => v.scheduler.drain(left)))).every(Boolean) && answered;
    const unloading = this.manager.unloadAll(
      new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and did not get to this request; retry on another replica'),
    );
    // Past the drain bound a run that never ends must not keep the process alive.
    if (drained) await unloading;
    else await Promise.race([unloading, new Promise((resolve) => setTimeout(resolve, UNLOAD_GRACE_MS).unref())]);
    // Handler threads go last: drained requests may still be postprocessing on them.
    await this.handlerPool.close({ force: !drained });
    return drained;
  }
}
