import type { Logger } from '../common/logger.js';
import type { SluiceConfig } from '../config/index.js';
import { InferenceApiModule } from '../api/rest/inference/inference-api.module.js';
import { ManagementApiModule } from '../api/rest/management/management-api.module.js';
import { MetricsApiModule } from '../api/rest/metrics/metrics-api.module.js';
import { startHttpApp, type HttpApp } from '../api/rest/http-app.js';
import { builtinHandlers } from '../../plugins/builtin-handlers/index.js';
import type { ModelRuntime } from '../runtime/model-runtime.js';
import type { StartupReport } from '../serving/model-manager.js';
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
}

/** A running server: the core, its three HTTP ports, and a graceful stop. */
export interface SluiceServer {
  readonly core: ServingCore;
  readonly inference: HttpApp;
  readonly management: HttpApp;
  readonly metrics: HttpApp;
  readonly startup: StartupReport;
  /** Stops accepting, drains in-flight requests (bounded by `shutdownTimeoutMs`), frees everything. Idempotent. */
  stop(): Promise<{ drained: boolean }>;
}

/**
 * Loads the models, then opens the inference, management and metrics ports. A model that fails to
 * load is logged and skipped; a port that cannot bind fails the start.
 */
export async function startServer(options: StartServerOptions): Promise<SluiceServer> {
  const { config, logger } = options;
  const core = new ServingCore({
    config,
    logger,
    serverVersion: SLUICE_VERSION,
    handlers: builtinHandlers.map((handler) => ({ handler, origin: 'built-in handlers' })),
    ...(options.runtime ? { runtime: options.runtime } : {}),
  });
  const startup = await core.manager.startup(options.restoreSnapshot ?? true);
  const apps: HttpApp[] = [];
  const open = async (name: string, module: Parameters<typeof startHttpApp>[0], listener: SluiceConfig['inference']): Promise<HttpApp> => {
    const app = await startHttpApp(module, { name, ...listener, maxRequestSizeBytes: config.maxRequestSizeBytes, logger });
    apps.push(app);
    return app;
  };
  try {
    const inference = await open('inference', InferenceApiModule.forCore(core), config.inference);
    const management = await open('management', ManagementApiModule.forCore(core), config.management);
    const metrics = await open('metrics', MetricsApiModule.forCore(core), config.metrics);
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
    return { core, inference, management, metrics, startup, stop };
  } catch (error) {
    await Promise.all(apps.map((a) => a.close()));
    await core.shutdown(0);
    throw error;
  }
}
