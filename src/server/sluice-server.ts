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
import { delayDrain, stopGracefully, type ClosablePort } from './graceful-stop.js';
import { runStartSteps, type StartStep } from './start-steps.js';
import { SluiceError } from '../sdk/errors/index.js';

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
  /**
   * Answers not-ready while still serving for `drainDelayMs`, then stops accepting, drains in-flight requests
   * (bounded by `shutdownTimeoutMs`) and frees everything. Idempotent.
   */
  stop(): Promise<{ drained: boolean }>;
}

/** The server's own telemetry when none is given: failed span exports are logged (at most once a minute). */
function ownTelemetryOf(settings: TelemetrySettings, logger: Logger): Telemetry {
  return new Telemetry(settings, { reportExportFailure: exportFailureLog(logger, settings.tracesEndpoint) });
}

/** What the start-up steps have started so far; each is set by its step. */
interface Started {
  telemetry?: Telemetry;
  plugins?: PluginExtensions;
  guards?: ApiGuards;
  core?: ServingCore;
  startup?: StartupReport & { readonly workflows: WorkflowStartupReport };
  inference?: HttpApp;
  management?: HttpApp;
  metrics?: HttpApp;
  grpc?: GrpcServers;
}

/** `value`, set by the step that starts `what`; a step that reads it before that step ran is a bug. */
function startedBefore<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new SluiceError('SLUICE_INTERNAL', `${what} was used by a start-up step that runs before the one that starts it`);
  return value;
}

/** Closes `ports` at once, all of them: one that fails to close must not keep the others open. */
async function closePorts(ports: readonly ClosablePort[]): Promise<void> {
  await Promise.allSettled(ports.map((port) => port.close()));
}

/**
 * Opens the inference, management and metrics ports and the two gRPC ports, then loads the models (liveness
 * answers meanwhile, readiness only once they are loaded), then writes the snapshot and calls the started
 * auth providers' `serving`: the steps of {@link startSteps}, in order. A model that fails to load is logged and skipped; a port that cannot bind, or a snapshot that
 * cannot be restored, fails the start, and a start that fails stops what its steps had started (ports,
 * models, plugins, its own telemetry, the last started first) before it throws. A port that cannot be
 * opened (in use, a host that is no local address) is `SLUICE_CONFIG_INVALID` naming its key; two
 * listeners whose hosts resolve to one address on one port are refused so before anything starts.
 * `abandon` gives up a start-up still under way (during plugin loading too: the plugins loaded so far are
 * shut down).
 */
export async function startServer(options: StartServerOptions): Promise<SluiceServer> {
  const started: Started = {};
  const ports: ClosablePort[] = [];
  await runStartSteps(startSteps(options, started, ports));
  const { config, logger } = options;
  const core = startedBefore(started.core, 'the serving core');
  const plugins = startedBefore(started.plugins, 'the plugins');
  let stopping: Promise<{ drained: boolean }> | undefined;
  const stop = (): Promise<{ drained: boolean }> =>
    (stopping ??= delayDrain(core, config.drainDelayMs, logger).then(() =>
      stopGracefully({
        ports,
        drainCore: (timeoutMs) => core.shutdown(timeoutMs),
        release: async () => {
          await plugins.shutdown();
          await releaseOwnTelemetry(options, started);
        },
        timeoutMs: config.shutdownTimeoutMs,
        logger,
      }),
    ));
  return {
    core,
    inference: startedBefore(started.inference, 'the inference port'),
    management: startedBefore(started.management, 'the management port'),
    metrics: startedBefore(started.metrics, 'the metrics port'),
    grpc: started.grpc,
    startup: startedBefore(started.startup, 'the start-up report'),
    plugins,
    stop,
  };
}

/** Shuts the server's telemetry down when the server built it (a caller's own is the caller's to shut down). */
async function releaseOwnTelemetry(options: StartServerOptions, started: Started): Promise<void> {
  if (options.telemetry === undefined) await started.telemetry?.shutdown();
}

/**
 * The steps of a start-up, in order, each with what stops it again: they fill `started`, and `ports` with
 * every port opened (what the graceful stop closes).
 */
function startSteps(options: StartServerOptions, started: Started, ports: ClosablePort[]): StartStep[] {
  const { config, logger } = options;
  const stage = abandonableStages(options.abandon);
  const root = packageRoot();
  const telemetry = (): Telemetry => startedBefore(started.telemetry, 'the telemetry');
  const plugins = (): PluginExtensions => startedBefore(started.plugins, 'the plugins');
  const guards = (): ApiGuards => startedBefore(started.guards, 'the auth guards');
  const core = (): ServingCore => startedBefore(started.core, 'the serving core');
  const httpPorts: ClosablePort[] = [];
  const grpcPorts: ClosablePort[] = [];
  const embedder = 'the embedding application';
  const endpointContext = (endpoint: PluginEndpoint): EndpointContext => ({
    models: () => core().registry.all().map((v) => v.description),
    workflows: () => core().workflows.names(),
    config: endpoint.config,
    logger: endpoint.logger,
  });
  const open = async (name: GuardedApi, module: DynamicModule, listener: SluiceConfig['inference'], traced: boolean): Promise<HttpApp> => {
    const observe = { metrics: core().metrics, accessLog: traced, logRequestBodies: config.telemetry.logRequestBodies, ...(traced ? { telemetry: telemetry() } : {}) };
    const endpoints = plugins().endpoints.filter((e) => e.value.api === name);
    const nestModules = plugins()
      .nestModules.filter((m) => m.api === name)
      .map((m) => m.value as unknown as DynamicModule);
    const withPlugins: DynamicModule = nestModules.length === 0 ? module : { ...module, imports: [...(module.imports ?? []), ...nestModules] };
    const provider = guards()[name];
    // The lane runs none of the request hooks or interceptors a plugin's Nest module may add, and a
    // plugin endpoint may take requests of the lane's shape.
    const lane = name === 'inference' && nestModules.length === 0 && !endpoints.some((e) => shadowsLaneRoute(e.value.method, e.value.path));
    const app = await stage(
      startHttpApp(withPlugins, {
        name,
        ...listener,
        maxRequestSizeBytes: config.maxRequestSizeBytes,
        requestReceiveTimeoutMs: config.requestReceiveTimeoutMs,
        logger,
        observe,
        ...(provider ? { auth: { api: name, provider, publicRoutes: new PublicRoutes(OPEN_HEALTH_ROUTES[name]) } } : {}),
        ...(endpoints.length > 0
          ? {
              extend: (fastify, coreRoutes) => {
                mountPluginEndpoints(fastify, endpoints, coreRoutes, endpointContext, logger);
              },
            }
          : {}),
        ...(lane ? { lane: (context: LaneContext) => new InferenceLane(core(), context) } : {}),
        // TorchServe's management clients send `DELETE /models/x/`.
        ignoreTrailingSlash: name === 'management',
      }),
    ).catch((error: unknown) => {
      throw listenFailure(error, [{ key: name, ...listener }]);
    });
    httpPorts.push(app);
    ports.push(app);
    return app;
  };
  return [
    {
      // Before anything starts: two listeners whose hosts resolve to one address would fail only at the second bind.
      name: 'check that no two listeners share an address',
      start: () => stage(checkListenerAddresses(config)),
    },
    {
      name: 'telemetry',
      start: () => {
        started.telemetry = options.telemetry ?? ownTelemetryOf(resolveTelemetrySettings(config.telemetry, process.env, SLUICE_VERSION), logger);
      },
      stop: () => releaseOwnTelemetry(options, started),
    },
    {
      name: 'plugins',
      // Not a stage: given up, the loader itself stops waiting, and shuts down the plugins it had loaded first.
      start: async () => {
        started.plugins = await loadPlugins({
          pluginsDir: options.pluginsDir ?? join(root, 'plugins'),
          packageRoot: root,
          entries: config.plugins,
          cwd: options.configDirectory ?? process.cwd(),
          sluiceVersion: SLUICE_VERSION,
          logger,
          loadTimeoutMs: config.pluginLoadTimeoutMs,
          ...(options.abandon ? { signal: options.abandon } : {}),
        }).catch((error: unknown) => {
          throw options.abandon?.aborted === true ? abandonedStart() : error;
        });
      },
      stop: async () => {
        await started.plugins?.shutdown();
      },
    },
    {
      name: 'plugin endpoints and auth guards',
      start: async () => {
        // Before any port opens: a plugin endpoint on a taken route would otherwise fail the start with ports already open.
        checkPluginEndpoints(plugins().endpoints);
        // Before the models load, so a guard that cannot be set up fails the start at once.
        started.guards = await stage(resolveApiGuards(config.auth, [...plugins().auth.all(), ...(options.authProviders ?? [])], config.pluginLoadTimeoutMs));
      },
    },
    {
      name: 'serving core',
      start: () => {
        const extensions = plugins();
        started.core = new ServingCore({
          telemetry: telemetry(),
          config,
          logger,
          serverVersion: SLUICE_VERSION,
          handlers: [
            ...extensions.handlers.map(({ value, origin, plugin }) => ({ handler: value, origin, plugin })),
            ...(options.handlers ?? []).map((handler) => ({ handler, origin: embedder })),
          ],
          executors: extensions.executors.map(({ value, origin }) => ({ executor: value, origin })),
          nodeHandlers: [
            ...extensions.nodeHandlers.map(({ value, origin }) => ({ handler: value, origin })),
            ...(options.nodeHandlers ?? []).map((handler) => ({ handler, origin: embedder })),
          ],
          envelopes: extensions.envelopes,
          hooks: extensions.hooks,
          ...(options.runtime ? { runtime: options.runtime } : {}),
          ...(options.handlerPool ? { handlerPool: options.handlerPool } : {}),
        });
      },
      stop: async () => {
        await started.core?.shutdown(0);
      },
    },
    {
      name: 'HTTP ports: inference, management, metrics',
      start: async () => {
        started.inference = await open('inference', InferenceApiModule.forCore(core()), config.inference, true);
        started.management = await open('management', ManagementApiModule.forCore(core()), config.management, true);
        started.metrics = await open('metrics', MetricsApiModule.forCore(core()), config.metrics, false);
      },
      stop: () => closePorts(httpPorts),
    },
    {
      name: 'gRPC ports: inference, management',
      start: async () => {
        if (!config.grpc.enabled) return;
        const grpcGuards: GrpcGuards = options.guards ?? {
          ...(guards().inference ? { inference: guards().inference } : {}),
          ...(guards().management ? { management: guards().management } : {}),
        };
        const grpcListeners: NamedListener[] = [
          { key: 'grpc.inference', ...config.grpc.inference },
          { key: 'grpc.management', ...config.grpc.management },
        ];
        const grpc = await stage(startGrpcServers(core(), config.grpc, logger, grpcGuards)).catch((error: unknown) => {
          throw listenFailure(error, grpcListeners);
        });
        started.grpc = grpc;
        for (const port of [grpc.inference, grpc.management]) {
          const closable: ClosablePort = {
            close: () => port.close(),
            closeAllConnections: () => {
              port.closeAllCalls();
            },
          };
          grpcPorts.push(closable);
          ports.push(closable);
        }
      },
      stop: () => closePorts(grpcPorts),
    },
    {
      // The ports listen before the models load: liveness answers at once, readiness once start-up has loaded
      // everything. Stopped with the ports and the core: a start-up that fails here (a corrupt snapshot, say)
      // closes the ports and releases the plugins and telemetry too.
      name: 'models and workflows',
      start: async () => {
        logger.info('ports open: loading models; readiness answers ready once they are loaded');
        const http = [started.inference, started.management, started.metrics].filter((app) => app !== undefined);
        const grpc = started.grpc ? [started.grpc.inference, started.grpc.management] : [];
        // While start-up loads, the listeners alone do not keep the process running: a start-up left waiting on
        // a promise nothing can settle still ends the process, saying so (cli/process-run.ts), as it did before
        // the ports opened first. Requests in progress keep it running.
        const listeners = [
          ...http.map((app) => (keep: boolean) => {
            const server = app.app.getHttpServer();
            if (keep) server.ref();
            else server.unref();
          }),
          ...grpc.map((port) => (keep: boolean) => {
            port.keepProcessAlive(keep);
          }),
        ];
        for (const keep of listeners) keep(false);
        started.startup = await stage(core().start(options.restoreSnapshot ?? true));
        for (const keep of listeners) keep(true);
        // `listening` says a port serves what start-up loaded: logged only now, though the ports opened first.
        for (const port of [...http, ...grpc]) port.logListening();
      },
    },
    {
      // Only now: a start that fails to listen must leave what a running server published (its snapshot, its key file) alone.
      name: 'publish: the snapshot, and the auth providers told the server is serving',
      start: async () => {
        await stage(core().serving());
        await stage(notifyProvidersServing(guards(), config.pluginLoadTimeoutMs));
      },
    },
  ];
}
