import { resolve } from 'node:path';
import { CONFIG_PATH_KEYS, type ConfigLayer, type PluginEntryConfig } from './sluice-config.js';

function withResolvedPath(node: unknown, path: readonly string[], baseDir: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return typeof node === 'string' && node !== '' ? resolve(baseDir, node) : node;
  if (typeof node !== 'object' || node === null || !(head in node)) return node;
  const record = node as Readonly<Record<string, unknown>>;
  return { ...record, [head]: withResolvedPath(record[head], rest, baseDir) };
}

/** Plugin folders resolve against `baseDir`, and a plugin's `from` defaults to it. */
function withResolvedPlugins(layer: ConfigLayer, baseDir: string): ConfigLayer {
  const entries: readonly PluginEntryConfig[] | undefined = layer.plugins;
  if (entries === undefined) return layer;
  const plugins = entries.map((entry) => ({
    ...entry,
    ...(entry.path !== undefined ? { path: resolve(baseDir, entry.path) } : {}),
    from: resolve(baseDir, entry.from ?? '.'),
  }));
  return { ...layer, plugins };
}

/**
 * A copy of `layer` in which every path key ({@link CONFIG_PATH_KEYS}) and plugin folder it sets is absolute,
 * relative ones resolved against `baseDir`.
 */
export function resolveConfigPaths<T extends ConfigLayer>(layer: T, baseDir: string): T {
  const resolved = CONFIG_PATH_KEYS.reduce<unknown>((node, key) => withResolvedPath(node, key.split('.'), baseDir), layer) as T;
  return withResolvedPlugins(resolved, baseDir) as T;
}
