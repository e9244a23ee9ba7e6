import { resolve } from 'node:path';
import { CONFIG_PATH_KEYS, type ConfigLayer } from './sluice-config.js';

function withResolvedPath(node: unknown, path: readonly string[], baseDir: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return typeof node === 'string' && node !== '' ? resolve(baseDir, node) : node;
  if (typeof node !== 'object' || node === null || !(head in node)) return node;
  const record = node as Readonly<Record<string, unknown>>;
  return { ...record, [head]: withResolvedPath(record[head], rest, baseDir) };
}

/**
 * A copy of `layer` in which every path key ({@link CONFIG_PATH_KEYS}) it sets is absolute,
 * relative ones resolved against `baseDir`.
 */
export function resolveConfigPaths<T extends ConfigLayer>(layer: T, baseDir: string): T {
  return CONFIG_PATH_KEYS.reduce<unknown>((node, key) => withResolvedPath(node, key.split('.'), baseDir), layer) as T;
}
