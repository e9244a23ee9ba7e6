import type { Logger } from '../common/logger.js';
import type { SluiceConfig } from '../config/index.js';
import { InferenceApiModule } from '../api/rest/inference/inference-api.module.js';
import { ManagementApiModule } from '../api/rest/management/management-api.module.js';
import { MetricsApiModule } from '../api/rest/metrics/metrics-api.module.js';
import { startHttpApp, type HttpApp } from '../api/rest/http-app.js';
import { startGrpcServers, type GrpcGuards, type GrpcServers } from '../api/grpc/grpc-servers.js';
import { builtinHandlers } from '../../plugins/builtin-handlers/index.js';
import { GpuExecutor } from '../../plugins/gpu-executor/index.js';
import { ocrHandlers } from '../../plugins/ocr/index.js';
import type { Handler } from '../plugins/sdk/handler.js';
import type { NodeHandler } from '../plugins/sdk/node-handler.js';
import type { ModelRuntime } from '../runtime/model-runtime.js';
import type { HandlerPoolOptions } from '../serving/handler-pool/index.js';
import type { StartupReport } from '../serving/model-manager.js';
import type { WorkflowStartupReport } from '../serving/workflows/workflow-manager.js';
import { ServingCore } from '../serving/serving-core.js';
import { SLUICE_VERSION } from './version.js';

/** How to start a server. */
export interface StartServerOptions {
  readonly config: SluiceConfig;
  readonly logger: Logger;
  /** Restore the last snapshot at start-up (default true); false is `--no-snapshot`. */
  readonly restoreSnapshot?: boolean;
  /** The model runtime (default: ONNX Runtime); embedders and tests may wrap it. */
  readonly runtime?: ModelRuntime;
  /**
   * Handlers beside the built-in ones, for embedders and tests until the plugin system loads them. A name
   * taken twice fails the start.
   */
  readonly handlers?: readonly Handler[];
  /** The worker threads of CPU-heavy handlers (default: `max(1, cores - 1)` threads). */
  readonly handlerPool?: HandlerPoolOptions;
  /** Workflow node handlers beside the built-in ones, for embedders and tests. */
  readonly nodeHandlers?: readonly NodeHandler[];
  /** Auth providers in front of the gRPC ports, by API; a port without one is open. */
  readonly guards?: GrpcGuards;
}

/** A running server: the core, its three HTTP ports and two gRPC ports, and a graceful stop. */
export interface SluiceServer {
  readonly core: ServingCore;
  readonly inference: HttpApp;
  readonly management: HttpApp;
  readonly metrics: HttpApp;
  /** The gRPC inference and management ports; undefined when `grpc.enabled` is false. */
  readonly grpc: GrpcServers | undefined;
  readonly startup: StartupReport & { readonly workflows: WorkflowStartupReport };
  /** Stops accepting, drains in-flight requests (bounded by `shutdownTimeoutMs`), frees everything. Idempotent. */
  stop(): Promise<{ drained: boolean }>;
}

/**
 * Loads the models, then opens the inference, management and metrics ports and the two gRPC ports. A model that fails to
 * load is logged and skipped; a port that cannot bind fails the start.
 */
export async function startServer(options: StartServerOptions): Promise<SluiceServer> {
  const { config, logger } = options;
  const core = new ServingCore({
    config,
    logger,
    serverVersion: SLUICE_VERSION,
    handlers: [
      ...builtinHandlers.map((handler) => ({ handler, origin: 'built-in handlers' })),
      ...(options.handlers ?? []).map((handler) => ({ handler, origin: 'the embedding application' })),
    ],
    executors: [{ executor: new GpuExecutor(), origin: 'built-in plugin @sluice/gpu-executor' }],
    nodeHandlers: [
      ...ocrHandlers.map((handler) => ({ handler, origin: 'built-in plugin @sluice/ocr' })),
      ...(options.nodeHandlers ?? []).map((handler) => ({ handler, origin: 'the embedding application' })),
    ],
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.handlerPool ? { handlerPool: options.handlerPool } : {}),
  });
  const startup = await core.start(options.restoreSnapshot ?? true);
  const apps: { close(): Promise<void>; closeAllConnections(): void }[] = [];
  const open = async (name: string, module: Parameters<typeof startHttpApp>[0], listener: SluiceConfig['inference']): Promise<HttpApp> => {
    const app = await startHttpApp(module, { name, ...listener, maxRequestSizeBytes: config.maxRequestSizeBytes, logger });
    apps.push(app);
    return app;
  };
  try {
    const inference = await open('inference', InferenceApiModule.forCore(core), config.inference);
    const management = await open('management', ManagementApiModule.forCore(core), config.management);
    const metrics = await open('metrics', MetricsApiModule.forCore(core), config.metrics);
    const grpc = config.grpc.enabled ? await startGrpcServers(core, config.grpc, logger, options.guards) : undefined;
    for (const port of grpc ? [grpc.inference, grpc.management] : []) {
      apps.push({
        close: () => port.close(),
        closeAllConnections: () => {
          port.closeAllCalls();
        },
      });
    }
    let stopping: Promise<{ drained: boolean }> | undefined;
    const stop = (): Promise<{ drained: boolean }> => {
      stopping ??= (async () => {
        logger.info('shutting down: no new requests, draining in-flight ones', { timeoutMs: config.shutdownTimeoutMs });
        const closing = Promise.all(apps.map((a) => a.close()));
        const drained = await core.shutdown(config.shutdownTimeoutMs);
        if (!drained) for (const a of apps) a.closeAllConnections();
        await closing;
        logger.info('stopped', { drained });
        return { drained };
      })();
      return stopping;
    };
    return { core, inference, management, metrics, grpc, startup, stop };
  } catch (error) {
    await Promise.all(apps.map((a) => a.close()));
    await core.shutdown(0);
    throw error;
  }
}
