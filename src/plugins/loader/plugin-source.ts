import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import type { PluginEntryConfig } from '../../config/sluice-config.js';
import { hasPluginManifest } from './plugin-manifest.js';

/** Where one plugin comes from and how the configuration treats it. */
export interface PluginSource {
  /** The plugin's folder. */
  readonly folder: string;
  /** How messages name the plugin before its manifest is read (`built-in token-auth`, `package x`). */
  readonly label: string;
  readonly builtIn: boolean;
  /** Skip with a warning instead of refusing to start. */
  readonly optional: boolean;
  /** The plugin's settings from its config entry (`{}` when it has none). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The folder relative paths of its settings resolve against. */
  readonly configDirectory: string;
}

/** A plugin that could not even be located, kept so an optional one can be skipped with its reason. */
export interface MissingPluginSource {
  readonly label: string;
  readonly optional: boolean;
  readonly error: SluiceError;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The folders under `pluginsDir` that hold a plugin manifest, by folder name. */
async function builtInFolders(pluginsDir: string): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  let names: string[];
  try {
    names = (await readdir(pluginsDir)).sort();
  } catch {
    return folders;
  }
  for (const name of names) {
    const folder = join(pluginsDir, name);
    if ((await isDirectory(folder)) && (await hasPluginManifest(folder))) folders.set(name, folder);
  }
  return folders;
}

/** Node's package lookup: `node_modules/<name>` in `from` and each folder above it. */
async function findPackage(name: string, from: string): Promise<string | undefined> {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (await isDirectory(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function entryKind(entry: PluginEntryConfig, index: number): { kind: 'name' | 'path' | 'package'; value: string } {
  const given = (['name', 'path', 'package'] as const).filter((key) => entry[key] !== undefined);
  const [kind] = given;
  if (given.length !== 1 || kind === undefined) {
    const problem = given.length === 0 ? 'names no plugin' : `sets ${given.map((k) => `\`${k}\``).join(' and ')}`;
    throw new SluiceError('SLUICE_CONFIG_INVALID', `\`plugins[${index}]\` ${problem}; give exactly one of \`name\` (a built-in plugin), \`path\` (a folder) or \`package\` (an npm package)`, {
      key: `plugins[${index}]`,
    });
  }
  return { kind, value: entry[kind] ?? '' };
}

/**
 * A `path` or `package` entry that names nothing on disk: a configuration value like a built-in name that
 * does not exist, so it is `SLUICE_CONFIG_INVALID` keyed by the entry's field, for the CLI to name its source.
 */
function notFound(kind: 'path' | 'package', value: string, from: string, index: number): SluiceError {
  const key = `plugins[${index}].${kind}`;
  const problem =
    kind === 'path'
      ? `there is no folder at ${value}; fix the path, or remove the entry`
      : `package \`${value}\` is not installed (no node_modules/${value} in ${from} or a folder above it); install it, fix the name or \`from\`, or remove the entry`;
  return new SluiceError('SLUICE_CONFIG_INVALID', `\`${key}\`: ${problem}`, { key });
}

/**
 * Every plugin to load: the built-in folders under `pluginsDir` (each configured by a `name` entry, or left
 * out with `enabled: false`), then the `path` and `package` entries in the order listed. Throws
 * `SLUICE_CONFIG_INVALID` for an entry that names no plugin, a built-in that does not exist, or a plugin
 * listed twice; an entry whose `path` or `package` is not found comes back in `missing` with such an error.
 */
export async function resolvePluginSources(
  pluginsDir: string,
  entries: readonly PluginEntryConfig[],
  cwd: string,
): Promise<{ sources: PluginSource[]; missing: MissingPluginSource[] }> {
  const builtIns = await builtInFolders(pluginsDir);
  const configured = new Map<string, { entry: PluginEntryConfig; index: number }>();
  const extra: { entry: PluginEntryConfig; index: number; kind: 'path' | 'package'; value: string }[] = [];
  entries.forEach((entry, index) => {
    const { kind, value } = entryKind(entry, index);
    if (kind === 'name') {
      if (!builtIns.has(value)) {
        throw new SluiceError('SLUICE_CONFIG_INVALID', `\`plugins[${index}].name\`: there is no built-in plugin \`${value}\`; built-in plugins: ${[...builtIns.keys()].join(', ')}. Use \`path\` or \`package\` for other plugins`, {
          key: `plugins[${index}].name`,
        });
      }
      const earlier = configured.get(value);
      if (earlier) throw new SluiceError('SLUICE_CONFIG_INVALID', `\`plugins[${index}]\` configures \`${value}\` again (already \`plugins[${earlier.index}]\`); merge the two entries`, { key: `plugins[${index}]` });
      configured.set(value, { entry, index });
    } else {
      extra.push({ entry, index, kind, value });
    }
  });
  const sources: PluginSource[] = [];
  const missing: MissingPluginSource[] = [];
  for (const [name, folder] of builtIns) {
    const entry = configured.get(name)?.entry;
    if (entry?.enabled === false) continue;
    sources.push({ folder, label: `built-in plugin ${name}`, builtIn: true, optional: entry?.optional ?? false, config: entry?.config ?? {}, configDirectory: entry?.from ?? cwd });
  }
  for (const { entry, index, kind, value } of extra) {
    if (entry.enabled === false) continue;
    const from = entry.from ?? cwd;
    const label = kind === 'path' ? `plugin at ${value}` : `plugin package ${value}`;
    const folder = kind === 'path' ? ((await isDirectory(value)) ? value : undefined) : await findPackage(value, from);
    const optional = entry.optional ?? false;
    if (folder === undefined) {
      missing.push({ label, optional, error: notFound(kind, value, from, index) });
      continue;
    }
    sources.push({ folder, label, builtIn: false, optional, config: entry.config ?? {}, configDirectory: from });
  }
  return { sources, missing };
}
