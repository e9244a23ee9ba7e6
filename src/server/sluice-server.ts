import { join } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import type { Logger } from '../sdk/logging/logger.js';
import { checkListenerAddresses, type SluiceConfig } from '../config/index.js';
import { InferenceApiModule } from '../api/rest/inference/inference-api.module.js';
import { ManagementApiModule } from '../api/rest/management/management-api.module.js';
import { MetricsApiModule } from '../api/rest/metrics/metrics-api.module.js';
import { startHttpApp, type HttpApp } from '../api/rest/http-app.js';
import { OPEN_HEALTH_ROUTES, PublicRoutes } from '../api/rest/auth/public-routes.js';
import { mountPluginEndpoints } from '../api/rest/plugin-endpoints.js';
import { checkPluginEndpoints } from '../api/rest/plugin-endpoint-routes.js';
import { packageRoot } from '../package-files/package-root.js';
import { loadPlugins } from '../plugins/loader/plugin-loader.js';
import type { PluginEndpoint, PluginExtensions } from '../plugins/registry/plugin-extensions.js';
import type { AuthProvider, GuardedApi } from '../sdk/auth/auth.js';
import type { EndpointContext } from '../sdk/endpoint/endpoint.js';
import { startGrpcServers, type GrpcGuards, type GrpcServers } from '../api/grpc/grpc-servers.js';
import type { Handler } from '../sdk/handler/handler.js';
import type { NodeHandler } from '../sdk/node-handler/node-handler.js';
import type { ModelRuntime } from '../sdk/runtime/model-runtime.js';
import type { HandlerPoolOptions } from '../serving/handler-pool/index.js';
import type { StartupReport } from '../serving/model-manager.js';
import type { WorkflowStartupReport } from '../workflow/serving/workflow-manager.js';
import { ServingCore } from '../serving/serving-core.js';
import { notifyProvidersServing, resolveApiGuards, type ApiGuards } from './auth-providers.js';
import { SLUICE_VERSION } from './version.js';
import { InferenceLane, shadowsLaneRoute } from '../api/rest/inference/inference-lane.js';
import type { LaneContext } from '../api/rest/request-lane.js';
import { Telemetry } from '../telemetry/tracing/telemetry.js';
import { resolveTelemetrySettings, type TelemetrySettings } from '../telemetry/tracing/telemetry-settings.js';
import { exportFailureLog } from '../telemetry/tracing/otlp/export-failure-log.js';
import { listenFailure, type NamedListener } from './listen-failure.js';
import { abandonableStages, abandonedStart } from './start-abandonment.js';
import { stopGracefully, type ClosablePort } from './graceful-stop.js';

/** How to start a server. */
export interface StartServerOptions {
  readonly config: SluiceConfig;
  readonly logger: Logger;
  /** Restore the last snapshot at start-up (default true); false is `--no-snapshot`. */
  readonly restoreSnapshot?: boolean;
  /** The model runtime (default: ONNX Runtime); embedders and tests may wrap it. */
  readonly runtime?: ModelRuntime;
  /** Handlers beside the plugins' ones, for embedders and tests. A name taken twice fails the start. */
  readonly handlers?: readonly Handler[];
  /** The worker threads of CPU-heavy handlers (default: `max(1, cores - 1)` threads). */
  readonly handlerPool?: HandlerPoolOptions;
  /** Workflow node handlers beside the plugins' ones, for embedders and tests. */
  readonly nodeHandlers?: readonly NodeHandler[];
  /** The folder of built-in plugins (default: `plugins/` of the Sluice package); tests point it elsewhere. */
  readonly pluginsDir?: string;
  /** Auth providers beside the plugins' ones, for embedders and tests; the `auth` section names them. */
  readonly authProviders?: readonly AuthProvider[];
  /** The folder relative paths of plugin settings resolve against: the config file's (default: the working directory). */
  readonly configDirectory?: string;
  /**
   * The server's tracer and meter providers (tests pass one with an in-memory span exporter); it is then
   * the caller's to shut down. Default: built from `config.telemetry` and the `OTEL_*` variables, shut down
   * by `stop()`.
   */
  readonly telemetry?: Telemetry;
  /** Auth providers in front of the gRPC ports, by API, instead of those the `auth` section names. */
  readonly guards?: GrpcGuards;
  /**
   * Aborted to give up a start-up that has not ended (a stop was asked for, and a stage such as a model load
   * did not finish in time): the stage under way is no longer waited for, what the start had started is
   * stopped at once (open ports closed, models released, plugins' `onShutdown`, the telemetry flush), and the
   * start rejects with `SLUICE_SERVER_SHUTTING_DOWN` ({@link isAbandonedStart}).
   */
  readonly abandon?: AbortSignal;
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
  /** What the plugins registered, and which plugins are loaded. */
  readonly plugins: PluginExtensions;
  /** Stops accepting, drains in-flight requests (bounded by `shutdownTimeoutMs`), frees everything. Idempotent. */
  stop(): Promise<{ drained: boolean }>;
}

/** The server's own telemetry when none is given: failed span exports are logged (at most once a minute). */
function ownTelemetryOf(settings: TelemetrySettings, logger: Logger): Telemetry {
  return new Telemetry(settings, { reportExportFailure: exportFailureLog(logger, settings.tracesEndpoint) });
}

/**
 * Loads the models, then opens the inference, management and metrics ports and the two gRPC ports, then
 * writes the snapshot and calls the started auth providers' `serving`. A model that fails to load is logged and skipped; a port
 * that cannot bind, or a snapshot that cannot be restored, fails the start, and a start that fails shuts down
 * whatever it had started (models, ports, plugins, its own telemetry) before it throws. A port that cannot be
 * opened (in use, a host that is no local address) is `SLUICE_CONFIG_INVALID` naming its key; two listeners
 * whose hosts resolve to one address on one port are refused so before anything starts. `abandon` gives
 * up a start-up still under way (during plugin loading too: the plugins loaded so far are shut down).
 */
export async function startServer(options: StartServerOptions): Promise<SluiceServer> {
  const { config, logger } = options;
  const stage = abandonableStages(options.abandon);
  // Before anything starts: two listeners whose hosts resolve to one address would fail only at the second bind.
  await stage(checkListenerAddresses(config));
  const telemetry = options.telemetry ?? ownTelemetryOf(resolveTelemetrySettings(config.telemetry, process.env, SLUICE_VERSION), logger);
  const ownTelemetry = options.telemetry === undefined;
  const root = packageRoot();
  const releaseTelemetry = async (): Promise<void> => {
    if (ownTelemetry) await telemetry.shutdown();
  };
  // Not a stage: given up, the loader itself stops waiting, and shuts down the plugins it had loaded first.
  const plugins = await loadPlugins({
    pluginsDir: options.pluginsDir ?? join(root, 'plugins'),
    packageRoot: root,
    entries: config.plugins,
    cwd: options.configDirectory ?? process.cwd(),
    sluiceVersion: SLUICE_VERSION,
    logger,
    loadTimeoutMs: config.pluginLoadTimeoutMs,
    ...(options.abandon ? { signal: options.abandon } : {}),
  }).catch(async (error: unknown) => {
    await releaseTelemetry();
    throw options.abandon?.aborted === true ? abandonedStart() : error;
  });
  let guards: ApiGuards;
  try {
    // Before any port opens: a plugin endpoint on a taken route would otherwise fail the start with ports already open.
    checkPluginEndpoints(plugins.endpoints);
    // Before the models load, so a guard that cannot be set up fails the start at once.
    guards = await stage(resolveApiGuards(config.auth, [...plugins.auth.all(), ...(options.authProviders ?? [])], config.pluginLoadTimeoutMs));
  } catch (error) {
    await plugins.shutdown();
    await releaseTelemetry();
    throw error;
  }
  const embedder = 'the embedding application';
  let core: ServingCore;
  try {
    core = new ServingCore({
      telemetry,
      config,
      logger,
      serverVersion: SLUICE_VERSION,
      handlers: [
        ...plugins.handlers.map(({ value, origin, plugin }) => ({ handler: value, origin, plugin })),
        ...(options.handlers ?? []).map((handler) => ({ handler, origin: embedder })),
      ],
      executors: plugins.executors.map(({ value, origin }) => ({ executor: value, origin })),
      nodeHandlers: [
        ...plugins.nodeHandlers.map(({ value, origin }) => ({ handler: value, origin })),
        ...(options.nodeHandlers ?? []).map((handler) => ({ handler, origin: embedder })),
      ],
      envelopes: plugins.envelopes,
      hooks: plugins.hooks,
      ...(options.runtime ? { runtime: options.runtime } : {}),
      ...(options.handlerPool ? { handlerPool: options.handlerPool } : {}),
    });
  } catch (error) {
    await plugins.shutdown();
    await releaseTelemetry();
    throw error;
  }
  const endpointContext = (endpoint: PluginEndpoint): EndpointContext => ({
    models: () => core.registry.all().map((v) => v.description),
    workflows: () => core.workflows.names(),
    config: endpoint.config,
    logger: endpoint.logger,
  });
  const apps: ClosablePort[] = [];
  const open = async (name: GuardedApi, module: DynamicModule, listener: SluiceConfig['inference'], traced: boolean): Promise<HttpApp> => {
    const observe = { metrics: core.metrics, accessLog: traced, logRequestBodies: config.telemetry.logRequestBodies, ...(traced ? { telemetry } : {}) };
    const endpoints = plugins.endpoints.filter((e) => e.value.api === name);
    const nestModules = plugins.nestModules.filter((m) => m.api === name).map((m) => m.value as unknown as DynamicModule);
    const withPlugins: DynamicModule = nestModules.length === 0 ? module : { ...module, imports: [...(module.imports ?? []), ...nestModules] };
    const provider = guards[name];
    // The lane runs none of the request hooks or interceptors a plugin's Nest module may add, and a
    // plugin endpoint may take requests of the lane's shape.
    const lane = name === 'inference' && nestModules.length === 0 && !endpoints.some((e) => shadowsLaneRoute(e.value.method, e.value.path));
    const app = await stage(startHttpApp(withPlugins, {
      name,
      ...listener,
      maxRequestSizeBytes: config.maxRequestSizeBytes,
      requestReceiveTimeoutMs: config.requestReceiveTimeoutMs,
      logger,
      observe,
      ...(provider ? { auth: { api: name, provider, publicRoutes: new PublicRoutes(OPEN_HEALTH_ROUTES[name]) } } : {}),
      ...(endpoints.length > 0 ? { extend: (fastify, coreRoutes) => { mountPluginEndpoints(fastify, endpoints, coreRoutes, endpointContext, logger); } } : {}),
      ...(lane ? { lane: (context: LaneContext) => new InferenceLane(core, context) } : {}),
    })).catch((error: unknown) => {
      throw listenFailure(error, [{ key: name, ...listener }]);
    });
    apps.push(app);
    return app;
  };
  try {
    // Inside the try: a start-up that fails here (a corrupt snapshot, say) must release the plugins and telemetry too.
    const startup = await stage(core.start(options.restoreSnapshot ?? true));
    const inference = await open('inference', InferenceApiModule.forCore(core), config.inference, true);
    const management = await open('management', ManagementApiModule.forCore(core), config.management, true);
    const metrics = await open('metrics', MetricsApiModule.forCore(core), config.metrics, false);
    const grpcGuards: GrpcGuards = options.guards ?? {
      ...(guards.inference ? { inference: guards.inference } : {}),
      ...(guards.management ? { management: guards.management } : {}),
    };
    const grpcListeners: NamedListener[] = [
      { key: 'grpc.inference', ...config.grpc.inference },
      { key: 'grpc.management', ...config.grpc.management },
    ];
    const grpc = config.grpc.enabled
      ? await stage(startGrpcServers(core, config.grpc, logger, grpcGuards)).catch((error: unknown) => {
          throw listenFailure(error, grpcListeners);
        })
      : undefined;
    for (const port of grpc ? [grpc.inference, grpc.management] : []) {
      apps.push({
        close: () => port.close(),
        closeAllConnections: () => {
          port.closeAllCalls();
        },
      });
    }
    // Only now: a start that fails to listen must leave what a running server published (its snapshot, its key file) alone.
    await stage(core.serving());
    await stage(notifyProvidersServing(guards, config.pluginLoadTimeoutMs));
    let stopping: Promise<{ drained: boolean }> | undefined;
    const stop = (): Promise<{ drained: boolean }> =>
      (stopping ??= stopGracefully({
        ports: apps,
        drainCore: (timeoutMs) => core.shutdown(timeoutMs),
        release: async () => {
          await plugins.shutdown();
          await releaseTelemetry();
        },
        timeoutMs: config.shutdownTimeoutMs,
        logger,
      }));
    return { core, inference, management, metrics, grpc, startup, plugins, stop };
  } catch (error) {
    // Settled, not all: one port that fails to close must not keep the plugins and telemetry running.
    await Promise.allSettled(apps.map((a) => a.close()));
    await core.shutdown(0);
    await plugins.shutdown();
    await releaseTelemetry();
    throw error;
  }
}
