import { isSluiceError, SluiceError } from '../sdk/errors/index.js';
import type { ConfigLayer } from './sluice-config.js';

/** What one source of configuration set, named as error messages name it. */
export interface SourcedLayer {
  /** The config file's name, the variable's name, or the command-line flags. */
  readonly source: string;
  readonly layer: ConfigLayer;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `layer` sets the value at `path`, or a list or value above it that replaces it whole. */
function sets(layer: unknown, path: readonly string[]): boolean {
  let node = layer;
  for (const part of path) {
    if (!isPlainObject(node)) return true;
    node = node[part];
    if (node === undefined) return false;
  }
  return true;
}

/**
 * Where each key of a loaded configuration came from, so that a problem found after loading (an auth
 * provider no plugin offers, a plugin entry naming no plugin) names its source as load-time problems do.
 */
export class ConfigSources {
  /** `layers`: lowest precedence first, the defaults left out. */
  constructor(private readonly layers: readonly SourcedLayer[]) {}

  /**
   * The source that set `key` (dotted, lists indexed: `auth.management`, `plugins[0].name`); undefined
   * when the key has its default.
   */
  sourceOf(key: string): string | undefined {
    const path = key.split(/[.[\]]+/).filter((part) => part !== '');
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const sourced = this.layers[i];
      if (sourced !== undefined && sets(sourced.layer, path)) return sourced.source;
    }
    return undefined;
  }

  /**
   * A `SLUICE_CONFIG_INVALID` error whose `details.key` a source set, with that source in front of its
   * message (`SLUICE_PLUGINS: \`plugins[0].name\`: …`); any other error as it is.
   */
  attribute(error: unknown): unknown {
    if (!isSluiceError(error, 'SLUICE_CONFIG_INVALID')) return error;
    const { key, source: named } = error.details;
    if (typeof key !== 'string' || named !== undefined) return error;
    const source = this.sourceOf(key);
    if (source === undefined) return error;
    return new SluiceError(error.code, `${source}: ${error.message}`, { ...error.details, source }, { cause: error });
  }
}
