import { isSluiceError, SluiceError } from '../../sdk/errors/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { PluginEntryConfig } from '../../config/sluice-config.js';
import type { AuthProvider } from '../../sdk/auth/auth.js';
import type { Envelope } from '../../sdk/envelope/envelope.js';
import { HookBus } from '../registry/hook-bus.js';
import { NamedRegistry } from '../registry/named-registry.js';
import { envelopeWithPluginErrors } from '../registry/plugin-failure.js';
import type { LoadedPluginInfo, PluginExtensions } from '../registry/plugin-extensions.js';
import { validatePluginConfig } from './plugin-config.js';
import { readPluginManifest, type PluginManifest } from './plugin-manifest.js';
import { importPlugin, pluginEntryFile } from './plugin-module.js';
import { orderByDependencies } from './plugin-order.js';
import { checkDeclaredRegistrations, createPluginContext, type PluginRegistrations } from './plugin-registration.js';
import { resolvePluginSources, type PluginSource } from './plugin-source.js';
import { ProvidedNames } from './provided-names.js';
import { checkSluiceRange } from './sluice-range.js';
import { withinTimeLimit } from './time-limit.js';
import { untilAborted } from './until-aborted.js';

/** Where plugins come from and what they are loaded into. */
export interface LoadPluginsOptions {
  /** The folder of built-in plugins (`plugins/` of the Sluice package). */
  readonly pluginsDir: string;
  /** The Sluice package's root, to find the compiled copy of built-in plugins. */
  readonly packageRoot: string;
  /** The configuration's `plugins:` list. */
  readonly entries: readonly PluginEntryConfig[];
  /** What relative paths resolve against when no config entry says. */
  readonly cwd: string;
  readonly sluiceVersion: string;
  readonly logger: Logger;
  /** How long importing one plugin's entry module, and then its `register()`, may each take (`pluginLoadTimeoutMs`). */
  readonly loadTimeoutMs: number;
  /**
   * Aborted to give up loading (the server was asked to stop during start-up): the import or `register()`
   * under way is no longer waited for, the plugins loaded so far are shut down (and the shutdown callbacks the
   * plugin under way had registered), and the load rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
}

interface Candidate {
  readonly source: PluginSource;
  readonly manifest: PluginManifest;
  readonly name: string;
  readonly dependencies?: readonly string[];
  readonly config: Readonly<Record<string, unknown>>;
}

interface Loaded {
  readonly candidate: Candidate;
  readonly registrations: PluginRegistrations;
}

function asLoadFailure(name: string, error: unknown): SluiceError {
  if (isSluiceError(error) && (error.code === 'SLUICE_PLUGIN_INVALID' || error.code === 'SLUICE_PLUGIN_LOAD_FAILED')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${name}: register() failed: ${reason}`, { plugin: name }, { cause: error });
}

function tooSlow(name: string, what: string, limitMs: number): SluiceError {
  return new SluiceError(
    'SLUICE_PLUGIN_LOAD_FAILED',
    `plugin ${name}: ${what} within ${limitMs / 1000} s; make it finish (start long work in the background instead of awaiting it), or raise \`pluginLoadTimeoutMs\``,
    { plugin: name, limitMs },
  );
}

/**
 * Loads every plugin before the server serves anything: discover (built-in folders and the config's
 * entries) → read and validate each manifest → check its Sluice range and config → order by dependencies
 * → import → register (each within `loadTimeoutMs`). Any failure refuses the start with a `SLUICE_PLUGIN_*`
 * error naming the plugin and the field, unless the plugin's entry says `optional: true`: then it is skipped with a warning (and so
 * are plugins that depend on it, under the same rule). A load that fails, or is given up (`signal`), shuts
 * down the plugins it had loaded before it rejects. The registries are frozen once all are loaded.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginExtensions> {
  const { logger } = options;
  const skip = (label: string, optional: boolean, error: SluiceError): void => {
    if (!optional) throw error;
    logger.warn('optional plugin skipped', { plugin: label, errorCode: error.code, error: error.message });
  };
  const { sources, missing } = await resolvePluginSources(options.pluginsDir, options.entries, options.cwd);
  for (const m of missing) skip(m.label, m.optional, m.error);

  const candidates: Candidate[] = [];
  const folderOf = new Map<string, string>();
  for (const source of sources) {
    try {
      const manifest = await readPluginManifest(source.folder, source.label);
      const earlier = folderOf.get(manifest.name);
      if (earlier !== undefined) {
        throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name} is found twice: in ${earlier} and in ${source.folder}; keep one of them`, { plugin: manifest.name, field: 'name' });
      }
      checkSluiceRange(manifest, options.sluiceVersion);
      const config = validatePluginConfig(manifest, source.config);
      folderOf.set(manifest.name, source.folder);
      candidates.push({ source, manifest, name: manifest.name, ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}), config });
    } catch (error) {
      skip(source.label, source.optional, asLoadFailure(source.label, error));
    }
  }

  const { ordered, problems } = orderByDependencies(candidates);
  for (const problem of problems) {
    const candidate = candidates.find((c) => c.name === problem.plugin);
    skip(problem.plugin, candidate?.source.optional ?? false, problem.error);
  }

  const loaded: Loaded[] = [];
  const provided = new ProvidedNames();
  // What the plugin being registered has registered so far, shut down with the loaded ones if loading ends here.
  let registering: Loaded | undefined;
  try {
    for (const candidate of ordered) {
      const { manifest, source } = candidate;
      try {
        const absent = (manifest.dependencies ?? []).find((dep) => !loaded.some((l) => l.candidate.name === dep));
        if (absent !== undefined) throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: its dependency \`${absent}\` could not be loaded`, { plugin: manifest.name, field: 'dependencies' });
        const file = pluginEntryFile(source.folder, manifest.main ?? 'index.js', options.packageRoot);
        // The time limit outside: given up, its timer goes too.
        const plugin = await withinTimeLimit(untilAborted(importPlugin(manifest.name, file), options.signal), options.loadTimeoutMs, () =>
          tooSlow(manifest.name, `its entry module ${file} (field \`main\`) did not finish loading`, options.loadTimeoutMs),
        );
        const registration = createPluginContext({
          manifest,
          config: candidate.config,
          folder: source.folder,
          configDirectory: source.configDirectory,
          sluiceVersion: options.sluiceVersion,
          logger: logger.child({ plugin: manifest.name }),
        });
        registering = { candidate, registrations: registration.registrations };
        try {
          await withinTimeLimit(untilAborted(Promise.resolve(plugin.register(registration.context)), options.signal), options.loadTimeoutMs, () =>
            tooSlow(manifest.name, 'register() did not finish', options.loadTimeoutMs),
          );
        } finally {
          // A register() cut off by the time limit may still run; what it registers later is refused.
          registration.close();
        }
        registering = undefined;
        checkDeclaredRegistrations(manifest, registration.registrations);
        provided.claim(manifest.name, `plugin ${manifest.name}@${manifest.version}`, registration.registrations);
        loaded.push({ candidate, registrations: registration.registrations });
      } catch (error) {
        if (options.signal?.aborted === true) throw error;
        registering = undefined;
        skip(manifest.name, source.optional, asLoadFailure(manifest.name, error));
      }
    }
  } catch (error) {
    // Loading ends here (a plugin that may not be skipped failed, or loading was given up): what was
    // loaded must not keep running with nothing left to shut it down.
    await shutDownPlugins(closersOf(registering ? [...loaded, registering] : loaded), logger, options.loadTimeoutMs);
    throw error;
  }
  const extensions = collectExtensions(loaded, logger, options.loadTimeoutMs);
  logger.info('plugins loaded', { plugins: extensions.plugins.map((p) => `${p.name}@${p.version}`) });
  return extensions;
}

/** What a shutdown callback still running when its time is up is reported as; shutdown goes on without it. */
class ShutdownTooSlow extends Error {}

function collectExtensions(loaded: readonly Loaded[], logger: Logger, closeTimeoutMs: number): PluginExtensions {
  const envelopes = new NamedRegistry<Envelope>('envelope');
  const auth = new NamedRegistry<AuthProvider>('auth provider');
  const hooks = new HookBus(logger);
  const plugins: LoadedPluginInfo[] = [];
  const result = {
    handlers: [] as PluginExtensions['handlers'][number][],
    nodeHandlers: [] as PluginExtensions['nodeHandlers'][number][],
    executors: [] as PluginExtensions['executors'][number][],
    endpoints: [] as PluginExtensions['endpoints'][number][],
    nestModules: [] as PluginExtensions['nestModules'][number][],
  };
  for (const { candidate, registrations: r } of loaded) {
    const { manifest } = candidate;
    const plugin = manifest.name;
    const origin = `plugin ${manifest.name}@${manifest.version}`;
    plugins.push({ name: plugin, version: manifest.version, folder: candidate.source.folder, builtIn: candidate.source.builtIn, provides: manifest.provides });
    for (const value of r.handlers) result.handlers.push({ value, plugin, origin });
    for (const value of r.nodeHandlers) result.nodeHandlers.push({ value, plugin, origin });
    for (const value of r.executors) result.executors.push({ value, plugin, origin });
    for (const value of r.endpoints) result.endpoints.push({ value, plugin, origin, config: candidate.config, logger: logger.child({ plugin }) });
    for (const { api, module } of r.nestModules) result.nestModules.push({ value: module, api, plugin, origin });
    for (const envelope of r.envelopes) envelopes.register(envelopeWithPluginErrors(envelope, plugin), origin);
    for (const provider of r.auth) auth.register(provider, origin);
    for (const { name, listener } of r.hooks) hooks.add(name, listener, plugin);
  }
  envelopes.freeze();
  auth.freeze();
  hooks.freeze();
  const closers = closersOf(loaded);
  let shuttingDown: Promise<void> | undefined;
  return {
    plugins,
    ...result,
    envelopes,
    auth,
    hooks,
    shutdown: () => (shuttingDown ??= shutDownPlugins(closers, logger, closeTimeoutMs)),
  };
}

/** A plugin's shutdown callback. */
interface Closer {
  readonly close: () => void | Promise<void>;
  readonly plugin: string;
}

/** The shutdown callbacks of `loaded`, the last registered first. */
function closersOf(loaded: readonly Loaded[]): Closer[] {
  return loaded.flatMap((l) => l.registrations.shutdown.map((close) => ({ close, plugin: l.candidate.name }))).reverse();
}

/** Runs each shutdown callback in turn, each within `closeTimeoutMs`: one that never settles must not keep the server from stopping. */
async function shutDownPlugins(closers: readonly Closer[], logger: Logger, closeTimeoutMs: number): Promise<void> {
  for (const { close, plugin } of closers) {
    try {
      await withinTimeLimit(Promise.resolve().then(close), closeTimeoutMs, () => new ShutdownTooSlow());
    } catch (error) {
      if (error instanceof ShutdownTooSlow) logger.warn('a plugin did not shut down in time; stopping without it', { plugin, limitMs: closeTimeoutMs });
      else logger.warn('a plugin failed to shut down', { plugin, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
