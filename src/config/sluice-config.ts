import type { LogFormat, LogLevel } from '../sdk/logging/logger.js';
import type { RuntimeSessionOptions } from '../sdk/runtime/model-runtime.js';

/** A TCP listener: the address to bind and the port (0 = any free port). */
export interface ListenerConfig {
  readonly host: string;
  readonly port: number;
}

/**
 * Which auth provider guards each API: the name of an auth plugin's provider (`token-auth`) or `none`.
 * gRPC services follow the API of their port.
 */
export interface AuthConfig {
  readonly inference: string;
  readonly management: string;
  readonly metrics: string;
}

/** The gRPC ports, their message limits and optional TLS. */
export interface GrpcConfig {
  readonly enabled: boolean;
  readonly inference: ListenerConfig;
  readonly management: ListenerConfig;
  readonly maxReceiveMessageBytes: number;
  readonly maxSendMessageBytes: number;
  /** PEM files, absolute once loaded; both empty means plaintext. */
  readonly tls: { readonly certFile: string; readonly keyFile: string };
}

/** Which models of the model store are loaded at start-up: every one, or the named ones. */
export type ModelSelection = 'all' | readonly string[];

/** One model version's start-up settings (`modelSettings.<name>.<version>`); units in the names. */
export interface ModelVersionSettingsConfig {
  readonly minWorkers?: number;
  readonly maxWorkers?: number;
  readonly batchSize?: number;
  readonly maxBatchDelayMs?: number;
  readonly responseTimeoutMs?: number;
  readonly loadTimeoutMs?: number;
  readonly jobQueueSize?: number;
  /** Makes this version the model's default. */
  readonly isDefault?: boolean;
}

/** Start-up settings of model versions, by model name then version. */
export type ModelSettingsConfig = Readonly<Record<string, Readonly<Record<string, ModelVersionSettingsConfig>>>>;

/** Whether and where the snapshot of registered models is kept. */
export interface SnapshotConfig {
  readonly enabled: boolean;
  /** Absolute once loaded. */
  readonly file: string;
}

/**
 * One entry of the `plugins:` list: a plugin named by exactly one of `name` (built-in), `path` (a folder,
 * absolute once loaded) or `package` (an npm package looked up from `from`), with its settings.
 */
export interface PluginEntryConfig {
  readonly name?: string;
  readonly path?: string;
  readonly package?: string;
  /** Absolute once loaded: the config file's folder unless set. */
  readonly from?: string;
  readonly optional?: boolean;
  readonly enabled?: boolean;
  readonly config?: Readonly<Record<string, unknown>>;
}

/** Limits applied while unpacking a model archive. */
export interface ArchiveLimitsConfig {
  readonly maxEntryBytes: number;
  readonly maxTotalBytes: number;
  readonly maxEntries: number;
}

/** Limits applied while downloading a model archive from a URL. */
export interface DownloadConfig {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** Traces, metrics export and access logs; the standard `OTEL_*` variables win over these when set. */
export interface TelemetryConfig {
  readonly serviceName: string;
  readonly tracesExporter: 'otlp' | 'console' | 'none';
  readonly metricsExporter: 'otlp' | 'none';
  /** Base URL of the OTLP/HTTP collector. */
  readonly otlpEndpoint: string;
  readonly sampler: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
  /** Ratio of the `*traceidratio` samplers (0..1). */
  readonly samplerArg: number;
  readonly metricExportIntervalMs: number;
  readonly logRequestBodies: boolean;
}

/**
 * Server-wide ONNX Runtime session options; every field is set (0 threads = the runtime's choice). A
 * session's device and its own thread are the executor's to choose, per model.
 */
export type RuntimeConfig = Readonly<Required<Omit<RuntimeSessionOptions, 'deviceId' | 'dedicatedThread'>>> & {
  /**
   * Whether CPU sessions run on the session thread instead of the event loop (`dedicatedThread`), so that
   * health checks and other requests are answered while a long run computes. The GPU executor has its own.
   */
  readonly sessionThread: boolean;
};

/**
 * The complete server configuration, as `schemas/config.schema.json` describes it. Produced by
 * `loadConfig`, which fills every key and makes every path absolute.
 */
export interface SluiceConfig {
  readonly inference: ListenerConfig;
  readonly management: ListenerConfig;
  readonly metrics: ListenerConfig;
  readonly auth: AuthConfig;
  readonly grpc: GrpcConfig;
  /** Absolute once loaded. */
  readonly modelStore: string;
  readonly models: ModelSelection;
  /** A model directory served under {@link modelName} besides the store's models; empty for none. Absolute once loaded. */
  readonly modelDir: string;
  /** The model name {@link modelDir} is served under; empty when it is. */
  readonly modelName: string;
  /** Settings of the versions loaded at start-up, over their manifests'. */
  readonly modelSettings: ModelSettingsConfig;
  /** Absolute once loaded. */
  readonly workflowStore: string;
  /** Which workflows of the workflow store are registered at start-up. */
  readonly workflows: ModelSelection;
  /** Plugins to load or configure besides the built-in ones. */
  readonly plugins: readonly PluginEntryConfig[];
  /** How long importing one plugin, and then its `register()`, may each take, in milliseconds. */
  readonly pluginLoadTimeoutMs: number;
  readonly defaultWorkers: number;
  readonly jobQueueSize: number;
  readonly maxRequestSizeBytes: number;
  /** How long a request's result may take, queueing included (after its body has arrived). */
  readonly responseTimeoutMs: number;
  /** How long a client may take to send a whole request, head and body (0 = no limit). */
  readonly requestReceiveTimeoutMs: number;
  /** Regular expression sources; each one is known to compile. */
  readonly allowedUrls: readonly string[];
  readonly logLevel: LogLevel;
  /** `auto` is resolved when the log is opened, by whether it goes to a terminal. */
  readonly logFormat: LogFormat;
  readonly snapshot: SnapshotConfig;
  readonly shutdownTimeoutMs: number;
  /**
   * On SIGTERM or SIGINT, how long the server answers readiness "not ready" while still serving everything,
   * before it closes its ports and drains (`shutdownTimeoutMs`): the time load balancers need to stop sending.
   */
  readonly drainDelayMs: number;
  /** How long `sluice start` (in the background) waits for the server to load its models and serve. */
  readonly startTimeoutMs: number;
  readonly archive: ArchiveLimitsConfig;
  readonly download: DownloadConfig;
  readonly runtime: RuntimeConfig;
  readonly telemetry: TelemetryConfig;
}

type LayerValue<T> = T extends readonly unknown[] ? T : T extends object ? Partial<T> : T;

/**
 * Part of a configuration: what one source (file, environment, command-line flags) sets. Sections
 * merge key by key; lists and scalars replace.
 */
export type ConfigLayer = { readonly [K in keyof SluiceConfig]?: LayerValue<SluiceConfig[K]> };

/**
 * Keys whose values are filesystem paths, resolved against the directory of the source that sets
 * them (an empty value stays empty: "not set"). Dotted, as in error messages.
 */
export const CONFIG_PATH_KEYS = ['modelStore', 'modelDir', 'workflowStore', 'snapshot.file', 'grpc.tls.certFile', 'grpc.tls.keyFile'] as const;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const GIB = 1024 * 1024 * 1024;

/**
 * Every default, with paths still relative (to the working directory). Must equal the `default`s
 * of the schema and the repository's `sluice.yaml`; tests hold the three together.
 */
export const DEFAULT_CONFIG: SluiceConfig = deepFreeze({
  inference: { host: '127.0.0.1', port: 8080 },
  management: { host: '127.0.0.1', port: 8081 },
  metrics: { host: '127.0.0.1', port: 8082 },
  auth: { inference: 'none', management: 'token-auth', metrics: 'none' },
  grpc: {
    enabled: true,
    inference: { host: '127.0.0.1', port: 7070 },
    management: { host: '127.0.0.1', port: 7071 },
    maxReceiveMessageBytes: 6553500,
    maxSendMessageBytes: 6553500,
    tls: { certFile: '', keyFile: '' },
  },
  modelStore: './model-store',
  models: 'all',
  modelDir: '',
  modelName: '',
  modelSettings: {},
  workflowStore: './workflows',
  workflows: 'all',
  plugins: [],
  pluginLoadTimeoutMs: 30000,
  defaultWorkers: 1,
  jobQueueSize: 100,
  maxRequestSizeBytes: 6553500,
  responseTimeoutMs: 120000,
  requestReceiveTimeoutMs: 300000,
  allowedUrls: [],
  logLevel: 'info',
  logFormat: 'auto',
  snapshot: { enabled: true, file: './.sluice/snapshot.json' },
  shutdownTimeoutMs: 30000,
  drainDelayMs: 0,
  startTimeoutMs: 60000,
  archive: { maxEntryBytes: 2 * GIB, maxTotalBytes: 4 * GIB, maxEntries: 10000 },
  download: { maxBytes: 2 * GIB, timeoutMs: 300000 },
  runtime: {
    intraOpNumThreads: 0,
    intraOpSpinning: 'during-run',
    interOpNumThreads: 0,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    sessionThread: false,
  },
  telemetry: {
    serviceName: 'sluice',
    tracesExporter: 'none',
    metricsExporter: 'none',
    otlpEndpoint: 'http://localhost:4318',
    sampler: 'parentbased_always_on',
    samplerArg: 1,
    metricExportIntervalMs: 60000,
    logRequestBodies: false,
  },
});
