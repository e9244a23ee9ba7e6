import { SluiceError } from '../sdk/errors/index.js';
import { listConfigKeys } from './config-schema-keys.js';
import { parseConfigValue } from './config-value-parser.js';

/** Every configuration environment variable starts with this. */
export const CONFIG_ENV_PREFIX = 'SLUICE_';

/**
 * Variables that start with {@link CONFIG_ENV_PREFIX} but are not configuration keys, and so are
 * not reported as unknown. Documented in `docs/configuration.md`.
 */
export const NON_CONFIG_ENV_VARIABLES: readonly string[] = [
  // The keys token-auth shares across a fleet with `keysFromEnvironment` (plugins/token-auth).
  'SLUICE_TOKEN_AUTH_INFERENCE_KEY',
  'SLUICE_TOKEN_AUTH_MANAGEMENT_KEY',
];

/** A configuration key that can be set from the environment. */
export interface ConfigEnvVariable {
  /** `SLUICE_INFERENCE_PORT`. */
  readonly name: string;
  /** The dotted key it sets: `inference.port`. */
  readonly key: string;
  readonly description: string;
  /** The schema's default for the key. */
  readonly default: unknown;
}

/** What one environment variable sets, not yet validated. */
export interface EnvSetting {
  /** The variable's name, used as the source of error messages. */
  readonly name: string;
  /** A partial configuration object holding just this key. */
  readonly layer: unknown;
}

/** `['runtime', 'intraOpNumThreads']` → `SLUICE_RUNTIME_INTRA_OP_NUM_THREADS`. */
export function configEnvVariableName(path: readonly string[]): string {
  const words = path.map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase());
  return CONFIG_ENV_PREFIX + words.join('_');
}

/** Every configuration environment variable, in schema order, derived from the schema. */
export function listConfigEnvVariables(): readonly ConfigEnvVariable[] {
  return listConfigKeys()
    .filter((info) => info.kind === 'value')
    .map((info) => ({
      name: configEnvVariableName(info.path),
      key: info.key,
      description: info.description,
      default: info.schema.default,
    }));
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), value);
}

/**
 * The configuration that `SLUICE_*` variables of `env` set, one entry per variable, sorted by name.
 * Throws `SLUICE_CONFIG_INVALID` naming the variable when one is unknown or its value cannot be
 * read as its key's type.
 */
export function readEnvSettings(env: Readonly<Record<string, string | undefined>>): readonly EnvSetting[] {
  const keysByName = new Map(
    listConfigKeys()
      .filter((info) => info.kind === 'value')
      .map((info) => [configEnvVariableName(info.path), info]),
  );
  const settings: EnvSetting[] = [];
  for (const name of Object.keys(env).sort()) {
    const raw = env[name];
    if (!name.startsWith(CONFIG_ENV_PREFIX) || raw === undefined || NON_CONFIG_ENV_VARIABLES.includes(name)) continue;
    const info = keysByName.get(name);
    if (info === undefined) {
      const known = [...keysByName.keys()].join(', ');
      throw new SluiceError('SLUICE_CONFIG_INVALID', `${name}: not a known configuration variable (known: ${known})`, {
        source: name,
      });
    }
    settings.push({ name, layer: nest(info.path, parseConfigValue(info, raw, name)) });
  }
  return settings;
}
