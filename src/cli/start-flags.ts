import { parseArgs } from 'node:util';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../sdk/logging/logger.js';
import { listConfigKeys, OVERRIDES_SOURCE, parseConfigValue, type ConfigLayer } from '../config/index.js';
import { UsageError } from './cli-errors.js';
import { parseCommandFlags } from './command-flags.js';

/** `sluice start` options. */
export interface StartFlags {
  readonly configFile: string | undefined;
  /** A TorchServe `config.properties` (`--ts-config`). */
  readonly tsConfigFile: string | undefined;
  readonly foreground: boolean;
  readonly restoreSnapshot: boolean;
  /** Config keys set by flags (the highest-precedence layer). */
  readonly overrides: ConfigLayer;
}

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * The flags that set a listener's port, by the key they set. KServe's runtimes take their HTTP and gRPC
 * ports as flags (8080 and 8081), and Sluice's management port is 8081 by default, so a ServingRuntime
 * moves the three together.
 */
const PORT_FLAGS = { 'inference-port': 'inference.port', 'management-port': 'management.port', 'grpc-inference-port': 'grpc.inference.port' } as const;

/** `--inference-port 8080` as the config value it sets, read as `SLUICE_INFERENCE_PORT` would be. */
function portOf(key: (typeof PORT_FLAGS)[keyof typeof PORT_FLAGS], raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const info = listConfigKeys().find((k) => k.key === key);
  if (info === undefined) throw new Error(`the configuration schema has no key ${key}`);
  return parseConfigValue(info, raw, OVERRIDES_SOURCE) as number;
}

function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}

/** The flags of `sluice start`. */
const START_OPTIONS = {
  config: { type: 'string' },
  'ts-config': { type: 'string' },
  'model-store': { type: 'string' },
  models: { type: 'string' },
  'model-dir': { type: 'string' },
  'model-name': { type: 'string' },
  'inference-port': { type: 'string' },
  'management-port': { type: 'string' },
  'grpc-inference-port': { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'no-snapshot': { type: 'boolean' },
  foreground: { type: 'boolean' },
} as const;

/** Parses the arguments after `start`. */
export function parseStartFlags(args: readonly string[]): StartFlags {
  const values = parseCommandFlags(
    args,
    START_OPTIONS,
    // An empty list loads no models, as `SLUICE_MODELS=` does.
    ['models'],
  );
  const logLevel = values['log-level'];
  if (logLevel !== undefined && !isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = values['log-format'];
  if (logFormat !== undefined && !isLogFormat(logFormat)) throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}`);
  const models = values.models;
  const inferencePort = portOf(PORT_FLAGS['inference-port'], values['inference-port']);
  const managementPort = portOf(PORT_FLAGS['management-port'], values['management-port']);
  const grpcInferencePort = portOf(PORT_FLAGS['grpc-inference-port'], values['grpc-inference-port']);
  const overrides: ConfigLayer = {
    ...(values['model-store'] !== undefined ? { modelStore: values['model-store'] } : {}),
    ...(models !== undefined ? { models: models === 'all' ? 'all' : models.split(',').map((m) => m.trim()).filter((m) => m !== '') } : {}),
    ...(values['model-dir'] !== undefined ? { modelDir: values['model-dir'] } : {}),
    ...(values['model-name'] !== undefined ? { modelName: values['model-name'] } : {}),
    // Sections merge key by key (the loader checks the layer against the schema), so a port alone keeps its host.
    ...(inferencePort !== undefined ? { inference: { port: inferencePort } } : {}),
    ...(managementPort !== undefined ? { management: { port: managementPort } } : {}),
    ...(grpcInferencePort !== undefined ? { grpc: { inference: { port: grpcInferencePort } } as ConfigLayer['grpc'] } : {}),
    ...(logLevel !== undefined ? { logLevel } : {}),
    ...(logFormat !== undefined ? { logFormat } : {}),
  };
  return { configFile: values.config, tsConfigFile: values['ts-config'], foreground: values.foreground === true, restoreSnapshot: values['no-snapshot'] !== true, overrides };
}

/**
 * The arguments of `sluice start` (already parsed by {@link parseStartFlags}) for the server it starts in
 * the background: `--log-format json` in place of any `--log-format`, since that server's log is a file,
 * always JSON (the start reads its errors back from it).
 */
export function backgroundServerArgs(args: readonly string[]): string[] {
  const { tokens } = parseArgs({ args: [...args], options: START_OPTIONS, strict: true, allowPositionals: false, tokens: true });
  const dropped = new Set<number>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name !== 'log-format') continue;
    dropped.add(token.index);
    if (!token.inlineValue) dropped.add(token.index + 1);
  }
  return [...args.filter((_arg, index) => !dropped.has(index)), '--log-format', 'json'];
}
