import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { readEnvSettings } from './config-env-reader.js';
import { readConfigFile } from './config-file-reader.js';
import { mergeConfigLayers } from './config-layer-merger.js';
import { checkListenerPorts } from './listener-ports.js';
import { validateConfigLayer } from './config-layer-validator.js';
import { checkModelDirectoryPair } from './model-directory-pair.js';
import { resolveConfigPaths } from './config-path-resolver.js';
import { ConfigSources, type SourcedLayer } from './config-sources.js';
import { DEFAULT_CONFIG, type ConfigLayer, type PluginEntryConfig, type SluiceConfig } from './sluice-config.js';
import { readTorchServeConfig, TORCHSERVE_DEFAULTS } from './torchserve-properties.js';

/** The file looked for in the working directory when no config file is named. */
export const DEFAULT_CONFIG_FILE_NAME = 'sluice.yaml';

/** How error messages about the `overrides` of {@link loadConfig} name their source. */
export const OVERRIDES_SOURCE = 'command-line flags';

/** Where {@link loadConfig} reads from. */
export interface LoadConfigOptions {
  /** A config file named explicitly (`--config`), relative to `cwd`; it must exist. */
  readonly configFile?: string;
  /**
   * A TorchServe `config.properties` (`--ts-config`), relative to `cwd`; it must exist. It sits above
   * the config file and below the environment and the flags; its relative paths resolve against `cwd`.
   */
  readonly tsConfigFile?: string;
  /** Base of relative paths from the environment and flags, and where `sluice.yaml` is looked for. */
  readonly cwd: string;
  /** The environment; only its `SLUICE_*` variables are read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Values from command-line flags; `undefined` values are ignored. */
  readonly overrides?: ConfigLayer;
}

function displayName(file: string, cwd: string): string {
  const fromCwd = relative(cwd, file);
  return fromCwd === '' || fromCwd.startsWith('..') || isAbsolute(fromCwd) ? file : fromCwd;
}

function fileLayer(configFile: string | undefined, cwd: string): SourcedLayer[] {
  const file = resolve(cwd, configFile ?? DEFAULT_CONFIG_FILE_NAME);
  if (configFile === undefined && !existsSync(file)) return [];
  const source = displayName(file, cwd);
  return [{ source, layer: resolveConfigPaths(validateConfigLayer(readConfigFile(file, source), source), dirname(file)) }];
}

/**
 * The layer of a TorchServe `config.properties`, its `plugins` entry for token-auth merged into the
 * lower layers' list (a list replaces a lower one whole, and the file must not drop the plugins
 * `sluice.yaml` configures).
 */
function torchServeLayers(tsConfigFile: string | undefined, cwd: string, env: LoadConfigOptions['env'], lower: readonly SourcedLayer[]): { layers: SourcedLayer[]; warnings: string[] } {
  if (tsConfigFile === undefined) return { layers: [], warnings: [] };
  const file = resolve(cwd, tsConfigFile);
  const source = displayName(file, cwd);
  const { layer, warning } = readTorchServeConfig(file, cwd, env, source);
  const checked = resolveConfigPaths(validateConfigLayer(layer, source), cwd);
  const added = checked.plugins ?? [];
  let plugins: PluginEntryConfig[] = [];
  for (const sourced of lower) if (sourced.layer.plugins !== undefined) plugins = [...sourced.layer.plugins];
  for (const entry of added) {
    const index = plugins.findIndex((p) => p.name !== undefined && p.name === entry.name);
    const earlier = index === -1 ? undefined : plugins[index];
    const merged: PluginEntryConfig = earlier === undefined ? entry : { ...earlier, config: { ...earlier.config, ...entry.config } };
    if (index === -1) plugins.push(merged);
    else plugins[index] = merged;
  }
  return {
    layers: [{ source, layer: added.length === 0 ? checked : { ...checked, plugins } }],
    warnings: warning === undefined ? [] : [warning],
  };
}

function envLayers(env: LoadConfigOptions['env'], cwd: string): SourcedLayer[] {
  return readEnvSettings(env).map((setting) => ({ source: setting.name, layer: resolveConfigPaths(validateConfigLayer(setting.layer, setting.name), cwd) }));
}

/** A loaded configuration and where its keys came from. */
export interface LoadedConfig {
  readonly config: SluiceConfig;
  readonly sources: ConfigSources;
  /** Warnings to log at start-up: the settings of a TorchServe `config.properties` Sluice goes on without. */
  readonly warnings: readonly string[];
}

/**
 * Builds the server configuration from, lowest precedence first: {@link DEFAULT_CONFIG} (with
 * `tsConfigFile`, TorchServe's defaults over it: {@link TORCHSERVE_DEFAULTS}), the config
 * file (`configFile`, else `<cwd>/sluice.yaml` when present), a TorchServe `config.properties`
 * (`tsConfigFile`), `SLUICE_*` environment variables, and `overrides`. Every source is validated on its own, so a bad value is reported with where it came
 * from: a message starting with the file name, the variable name or {@link OVERRIDES_SOURCE}.
 * Relative paths resolve against the config file's directory, or `cwd` for the other sources; the
 * result's paths are absolute. Two listeners on one port are refused too, and `modelDir` without
 * `modelName` or the other way round. Throws `SluiceError`
 * `SLUICE_CONFIG_INVALID`. `sources` names where each key came from, for problems found later.
 */
export function loadConfigWithSources(options: LoadConfigOptions): LoadedConfig {
  const cwd = resolve(options.cwd);
  const files = fileLayer(options.configFile, cwd);
  const torchServe = torchServeLayers(options.tsConfigFile, cwd, options.env, files);
  const sourced: SourcedLayer[] = [
    ...files,
    ...torchServe.layers,
    ...envLayers(options.env, cwd),
    { source: OVERRIDES_SOURCE, layer: resolveConfigPaths(validateConfigLayer(options.overrides ?? {}, OVERRIDES_SOURCE), cwd) },
  ];
  // A TorchServe start starts from TorchServe's defaults where they differ from Sluice's own.
  const defaults = options.tsConfigFile === undefined ? [] : [TORCHSERVE_DEFAULTS];
  const config = mergeConfigLayers(DEFAULT_CONFIG, [resolveConfigPaths(DEFAULT_CONFIG, cwd), ...defaults, ...sourced.map((s) => s.layer)]);
  checkListenerPorts(config);
  const sources = new ConfigSources(sourced);
  checkModelDirectoryPair(config, sources);
  return { config, sources, warnings: torchServe.warnings };
}

/** The configuration {@link loadConfigWithSources} builds, without its sources. */
export function loadConfig(options: LoadConfigOptions): SluiceConfig {
  return loadConfigWithSources(options).config;
}
