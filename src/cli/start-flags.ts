import { parseArgs } from 'node:util';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../sdk/logging/logger.js';
import type { ConfigLayer } from '../config/index.js';
import { UsageError } from './cli-errors.js';
import { parseCommandFlags } from './command-flags.js';

/** `sluice start` options. */
export interface StartFlags {
  readonly configFile: string | undefined;
  readonly foreground: boolean;
  readonly restoreSnapshot: boolean;
  /** Config keys set by flags (the highest-precedence layer). */
  readonly overrides: ConfigLayer;
}

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}

/** The flags of `sluice start`. */
const START_OPTIONS = {
  config: { type: 'string' },
  'model-store': { type: 'string' },
  models: { type: 'string' },
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
  const overrides: ConfigLayer = {
    ...(values['model-store'] !== undefined ? { modelStore: values['model-store'] } : {}),
    ...(models !== undefined ? { models: models === 'all' ? 'all' : models.split(',').map((m) => m.trim()).filter((m) => m !== '') } : {}),
    ...(logLevel !== undefined ? { logLevel } : {}),
    ...(logFormat !== undefined ? { logFormat } : {}),
  };
  return { configFile: values.config, foreground: values.foreground === true, restoreSnapshot: values['no-snapshot'] !== true, overrides };
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
