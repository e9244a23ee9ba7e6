import type { LogLevel } from '../sdk/logging/logger.js';
import { LOG_LEVELS } from '../sdk/logging/logger.js';
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

/** Parses the arguments after `start`. */
export function parseStartFlags(args: readonly string[]): StartFlags {
  const values = parseCommandFlags(
    args,
    {
      config: { type: 'string' },
      'model-store': { type: 'string' },
      models: { type: 'string' },
      'log-level': { type: 'string' },
      'no-snapshot': { type: 'boolean' },
      foreground: { type: 'boolean' },
    },
    // An empty list loads no models, as `SLUICE_MODELS=` does.
    ['models'],
  );
  const logLevel = values['log-level'];
  if (logLevel !== undefined && !isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const models = values.models;
  const overrides: ConfigLayer = {
    ...(values['model-store'] !== undefined ? { modelStore: values['model-store'] } : {}),
    ...(models !== undefined ? { models: models === 'all' ? 'all' : models.split(',').map((m) => m.trim()).filter((m) => m !== '') } : {}),
    ...(logLevel !== undefined ? { logLevel } : {}),
  };
  return { configFile: values.config, foreground: values.foreground === true, restoreSnapshot: values['no-snapshot'] !== true, overrides };
}
