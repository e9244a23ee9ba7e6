import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import { nameRuleProblem } from './name-rule.js';
import type { ModelVersionSettingsConfig, SluiceConfig } from '../config/index.js';
import {
  isObjectStoreUrl,
  MANIFEST_FILE_NAME,
  MODEL_FILE_NAME,
  isPathInside,
  modelNamePattern,
  scanModelStore,
  scanStoreName,
  type Snapshot,
  type SnapshotModel,
  type SnapshotStore,
  type ModelManifest,
  type SnapshotWorkflow,
} from '../model-store/index.js';
import { batchSettingsProblem } from './batching-limits.js';
import { loadModelVersion, versionSettingsOf, type ModelLoaderDeps, type SettingOverrides } from './model-loader.js';
import type { ModelRegistry } from './model-registry.js';
import type { ModelSourceResolver, ModelSource } from './model-source-resolver.js';
import type { ModelVersion } from './model-version.js';
import { checkModelNotInUse, type ModelUse } from './model-uses.js';
import { snapshotModels, type ModelSetState } from './model-set-state.js';
import { storeRelativeError, storeRelativeText } from './store-relative-error.js';
import { MutationQueue } from './mutation-queue.js';
import { checkModelNameFree } from './name-claims.js';
import { checkGivenPreferredBatchSizes, checkPreferredBatchSizesAgainst } from './preferred-batch-sizes.js';
import { UnrestoredModels, type UnrestoredModel } from './unrestored-models.js';
import { compareVersions } from './version-order.js';
import { MAX_WORKERS, workerCountOverLimit } from './worker-limit.js';

/** A registration request (the management API's parameters, typed). */
export interface RegisterRequest extends SettingOverrides {
  readonly url: string;
  /** Headers a download of `url` carries: the W3C trace context of the registration, so its trace continues at the model host. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
}

/** New worker bounds; an omitted bound keeps its value (and min never exceeds max). */
export interface ScaleRequest {
  readonly min?: number | undefined;
  readonly max?: number | undefined;
}

/** A version a URL stands for, and whether this call registered it. */
export interface EnsuredModel {
  readonly name: string;
  readonly version: string;
  /** Registered by this call (so whoever asked may take it back if its own step fails). */
  readonly added: boolean;
}

/** What start-up loaded and what it could not. */
export interface StartupReport {
  readonly loaded: readonly string[];
  readonly failed: readonly { readonly source: string; readonly reason: string }[];
  readonly restoredFromSnapshot: boolean;
  /** Snapshot entries (`name@version`) that failed to load and stay in the snapshot for the next start. */
  readonly kept: readonly string[];
  /** The workflows of the restored snapshot, for the workflow manager to register next. */
  readonly snapshotWorkflows?: readonly SnapshotWorkflow[];
}

/** A workflow change as {@link ModelManager.commitWorkflows} makes it. */
export interface WorkflowChange<T> {
  /** The registered workflows as the change leaves them, as the snapshot records them. */
  readonly workflows: readonly SnapshotWorkflow[];
  /** Makes the change once its snapshot is written; throws nothing it could have thrown before. */
  readonly apply: () => T;
}

/** Everything the manager works with. */
export interface ModelManagerDeps {
  readonly registry: ModelRegistry;
  readonly sources: ModelSourceResolver;
  readonly loader: ModelLoaderDeps;
  readonly config: SluiceConfig;
  readonly snapshots: SnapshotStore | undefined;
  readonly logger: Logger;
  /** The registered workflows, written to the same snapshot. */
  readonly workflowsForSnapshot?: () => readonly SnapshotWorkflow[];
  /** Whether a workflow holds `name`: a model may not take it. */
  readonly workflowNamed: (name: string) => boolean;
  /** The registered workflows that call model `name`: it may not go while they need it. */
  readonly modelUses: (name: string) => readonly ModelUse[];
}

function reasonOf(error: unknown): string {
  return isSluiceError(error) || error instanceof Error ? error.message : String(error);
}

function invalidArgument(message: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', message);
}

/** A name that breaks the manifest rule would be unreachable by URL, or reachable only by a different path. */
function checkModelName(name: string | undefined): void {
  const problem = name === undefined ? undefined : nameRuleProblem('`model_name`', modelNamePattern(), name);
  if (problem !== undefined) throw invalidArgument(problem);
}

/** A default priority must be one of the levels; here the levels given in the same request. */
function checkGivenPriorities(overrides: SettingOverrides): void {
  const { defaultPriority, priorityLevels } = overrides;
  if (defaultPriority === undefined || priorityLevels === undefined || defaultPriority <= priorityLevels) return;
  throw invalidArgument(
    `\`default_priority\` (${defaultPriority}) is above \`priority_levels\` (${priorityLevels}); give a default_priority from 1 to ${priorityLevels} or more priority_levels`,
  );
}

/**
 * A default priority must be one of the levels: those given with it, else those of the model's manifest;
 * levels given without a default must keep the default the manifest declares, if it declares one.
 */
function checkDefaultPriority(overrides: SettingOverrides, manifest: ModelManifest): void {
  const model = `model \`${overrides.name ?? manifest.name}\` version \`${manifest.version}\``;
  if (overrides.priorityLevels !== undefined) {
    checkGivenPriorities(overrides);
    const declared = manifest.declaredBatching.defaultPriority;
    if (overrides.defaultPriority !== undefined || declared === undefined || declared <= overrides.priorityLevels) return;
    throw invalidArgument(
      `\`priority_levels\` (${overrides.priorityLevels}) leaves out the default priority ${declared} of ${model} (its manifest's batching.defaultPriority); give a default_priority from 1 to ${overrides.priorityLevels} as well, or at least ${declared} priority_levels`,
    );
  }
  const levels = manifest.batching.priorityLevels;
  if (overrides.defaultPriority === undefined || overrides.defaultPriority <= levels) return;
  throw invalidArgument(
    `\`default_priority\` (${overrides.defaultPriority}) is above the ${levels} priority level(s) of ${model} (its manifest's batching.priorityLevels); give a default_priority from 1 to ${levels}, or priority_levels as well`,
  );
}

/** Refuses worker counts above {@link MAX_WORKERS}, named as `counts` names them. */
function checkWorkerCounts(counts: Readonly<Record<string, number | undefined>>): void {
  const over = workerCountOverLimit(counts);
  if (over === undefined) return;
  throw invalidArgument(`\`${over.key}\` (${over.count}) is more than the ${MAX_WORKERS} workers a model version may have; give at most ${MAX_WORKERS}`);
}

/**
 * Refuses a registration whose own arguments are wrong, before anything is queued or downloaded. It throws
 * at once rather than through a promise, so that a caller that does not wait for the load still hears it.
 */
function checkRegisterRequest(request: RegisterRequest): void {
  checkModelName(request.name);
  checkWorkerCounts({ minWorkers: request.minWorkers, maxWorkers: request.maxWorkers });
  const batching = batchSettingsProblem(request);
  if (batching !== undefined) throw invalidArgument(batching);
  checkGivenPriorities(request);
  checkGivenPreferredBatchSizes(request);
}

/**
 * Refuses a second source of the same name and version in one registration (two version directories whose
 * manifests give one version), before anything loads: one of them would be registered and the other not.
 */
function checkNotTwice(seen: Map<string, string>, name: string, manifest: ModelManifest): void {
  const key = `${name}\u0000${manifest.version}`;
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, manifest.manifestPath);
    return;
  }
  throw new SluiceError(
    'SLUICE_MANIFEST_INVALID',
    `${manifest.manifestPath}: \`version\` "${manifest.version}" of model \`${name}\` is also the version in ${first}; give each version directory a version of its own`,
    { source: manifest.manifestPath },
  );
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Registers, scales, re-defaults and unregisters model versions. Changes run one at a time, and once the
 * server serves ({@link ModelManager.serving}) the registered set is written to the snapshot after each
 * so that a restart restores it.
 */
export class ModelManager {
  private readonly mutations = new MutationQueue();
  /** Set by {@link serving}: before it, the snapshot on disk may be a running server's and is left alone. */
  private publishing = false;
  /** Snapshot entries start-up could not load; written to every snapshot until unregistered or registered again. */
  private unrestored = new UnrestoredModels();

  constructor(private readonly deps: ModelManagerDeps) {}

  /**
   * Loads every version `url` stands for; all or nothing. Throws `SLUICE_MANAGEMENT_INVALID_ARGUMENT` at
   * once (not through the promise) when the request's own arguments are invalid, and
   * `SLUICE_MODEL_ALREADY_REGISTERED` when its `name` is a workflow's (at once when the request gives it).
   */
  register(request: RegisterRequest): Promise<ModelVersion[]> {
    checkRegisterRequest(request);
    this.checkHandler(request.handler);
    if (request.name !== undefined) checkModelNameFree(request.name, this.deps.workflowNamed);
    // Downloading and unpacking touch no registered version, so they run before this registration's turn:
    // a download that takes up to `download.timeoutMs` must not hold up every scale and unregister behind it.
    return this.deps.sources
      .resolve(request.url, request.traceHeaders, { handler: request.handler })
      .then((sources) => this.mutations.run(() => this.loadAll(sources, withoutUndefined({ ...request, url: undefined, traceHeaders: undefined }))))
      .catch((error: unknown) => {
        throw storeRelativeError(error, this.deps.config);
      });
  }

  /**
   * The versions `url` stands for, registering those that are not registered yet with `request`'s
   * settings; versions already registered are used as they are (a workflow naming a model the server
   * already serves). As in {@link register}, the download comes before this call's turn.
   */
  ensureRegistered(request: RegisterRequest): Promise<EnsuredModel[]> {
    checkRegisterRequest(request);
    return this.deps.sources
      .resolve(request.url, request.traceHeaders)
      .then((sources) =>
        this.mutations.run(async () => {
          const name = (s: ModelSource): string => request.name ?? s.manifest.name;
          const missing = sources.filter((s) => !this.deps.registry.has(name(s), s.manifest.version));
          if (missing.length > 0) await this.loadAll(missing, withoutUndefined({ ...request, url: undefined, traceHeaders: undefined }));
          return sources.map((s) => ({ name: name(s), version: s.manifest.version, added: missing.includes(s) }));
        }),
      )
      .catch((error: unknown) => {
        throw storeRelativeError(error, this.deps.config);
      });
  }

  /** The names of the handlers a registration may choose (`handler`). */
  handlerNames(): string[] {
    return this.deps.loader.handlers.names();
  }

  /** Changes worker bounds of a version (the default one when `version` is omitted). */
  scale(name: string, version: string | undefined, request: ScaleRequest): Promise<ModelVersion> {
    return this.mutations.run(async () => {
      const target = this.deps.registry.resolve(name, version);
      const current = target.settings;
      let min = request.min ?? current.minWorkers;
      let max = request.max ?? Math.max(current.maxWorkers, min);
      if (request.min !== undefined && request.max !== undefined && request.max < request.min) {
        throw new SluiceError(
          'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
          `max_worker (${request.max}) must be at least min_worker (${request.min})`,
        );
      }
      if (request.min === undefined && max < min) min = max;
      if (max < min) max = min;
      checkWorkerCounts({ min_worker: request.min, max_worker: request.max });
      const now = this.currentState();
      const scaled = new Map([[target, { ...target.settings, minWorkers: min, maxWorkers: max }]]);
      await this.commit({ ...now, settings: scaled }, () => {
        target.scaleWorkers(min, max);
      });
      this.deps.logger.info('model version scaled', { model: target.name, version: target.version, minWorkers: min, maxWorkers: max });
      return target;
    });
  }

  /** Makes `version` the default of `name`. */
  setDefault(name: string, version: string): Promise<void> {
    return this.mutations.run(async () => {
      this.deps.registry.resolve(name, version);
      const now = this.currentState();
      await this.commit({ ...now, defaults: new Map(now.defaults).set(name, version) }, () => {
        this.deps.registry.setDefault(name, version);
      });
    });
  }

  /**
   * Unregisters one version, or every version when `version` is omitted; answers the removed versions. A
   * snapshot entry start-up could not load is unregistered the same way (it leaves the snapshot). Throws
   * `SLUICE_MODEL_IN_USE` when a registered workflow needs what would go (see {@link checkModelNotInUse}).
   */
  unregister(name: string, version?: string): Promise<string[]> {
    return this.mutations.run(async () => {
      const registry = this.deps.registry;
      const unrestored = this.unrestored.copy();
      if (this.unrestored.has(name, version) && !registry.has(name, version)) {
        const dropped = unrestored.drop(name, version);
        await this.commit({ ...this.currentState(), unrestored }, () => undefined);
        this.deps.logger.info('model unregistered (it was kept in the snapshot, not loaded)', { model: name, versions: dropped });
        return dropped;
      }
      const targets = version === undefined ? registry.versionsOf(name) : [registry.removable(name, version)];
      const removed = targets.map((t) => t.version);
      const remaining = registry.versionsOf(name).map((v) => v.version).filter((v) => !removed.includes(v));
      checkModelNotInUse({ name, version, removed, remaining }, this.deps.modelUses(name));
      const kept = version === undefined ? unrestored.drop(name) : [];
      const now = this.currentState();
      const defaults = new Map(now.defaults);
      if (remaining.length === 0) defaults.delete(name);
      const versions = now.versions.filter((v) => !targets.includes(v));
      await this.commit({ ...now, versions, defaults, unrestored }, () => {
        if (version !== undefined) registry.remove(name, version);
        else for (const target of [...targets].reverse()) this.removeAny(target);
      });
      await Promise.all(targets.map((t) => t.unload()));
      this.deps.logger.info('model unregistered', { model: name, versions: targets.map((t) => t.version) });
      return [...targets.map((t) => t.version), ...kept];
    });
  }

  /**
   * Loads what start-up should serve: the last snapshot when there is one and `restore` is set, else the
   * configured `models`. A version that fails to load is logged and skipped; the others still load. A
   * snapshot entry that fails stays in the snapshot (see {@link UnrestoredModels}), so that the next start
   * tries it again.
   */
  startup(restore: boolean): Promise<StartupReport> {
    return this.mutations.run(async () => {
      await this.checkModelNameFreeInStore();
      const snapshot = restore ? await this.deps.snapshots?.read() : undefined;
      const failed: { source: string; reason: string }[] = [];
      const loaded: string[] = [];
      const kept: string[] = [];
      /** Answers the load error's message, or undefined when it loaded. */
      const attempt = async (source: string, load: () => Promise<ModelVersion[]>): Promise<string | undefined> => {
        try {
          loaded.push(...(await load()).map((v) => `${v.name}@${v.version}`));
          return undefined;
        } catch (error) {
          failed.push({ source, reason: reasonOf(error) });
          this.deps.logger.error('model failed to load; the other models still start', { source, reason: reasonOf(error) });
          return reasonOf(error);
        }
      };
      if (snapshot) {
        for (const entry of snapshot.models) {
          const loadError = await attempt(entry.url, () => this.restoreEntry(entry));
          if (loadError === undefined) continue;
          // The model list shows it: named as answers name paths (the log line has the full one).
          this.unrestored.keep(entry, storeRelativeText(loadError, this.deps.config));
          kept.push(`${entry.name}@${entry.version}`);
          this.deps.logger.warn(
            'model from the snapshot kept in the snapshot but not loaded: the next start tries it again; unregister it or register it again to change that',
            { model: entry.name, version: entry.version, source: entry.url },
          );
        }
        for (const entry of snapshot.models.filter((e) => e.isDefault)) {
          if (this.deps.registry.has(entry.name, entry.version)) this.deps.registry.setDefault(entry.name, entry.version);
        }
      } else {
        for (const url of await this.startupUrls()) {
          await attempt(url, async () => this.loadConfigured(await this.deps.sources.resolve(url)));
        }
        this.defaultToHighestVersions();
        this.applyConfiguredDefaults();
      }
      await this.loadModelDir(loaded);
      return {
        loaded,
        failed,
        kept,
        restoredFromSnapshot: snapshot !== undefined,
        ...(snapshot?.workflows ? { snapshotWorkflows: snapshot.workflows } : {}),
      };
    });
  }

  /**
   * The snapshot entries start-up could not load, kept for the next start, with their load errors (their
   * `isDefault` as the next snapshot records it).
   */
  notLoaded(): UnrestoredModel[] {
    return this.unrestored.list((name) => this.loadedDefaultOf(name));
  }

  /**
   * Makes a workflow change in this manager's turn, so that no model change runs between deciding it and
   * making it: `change` checks it against the models registered now (throwing to refuse it) and answers the
   * registered workflows as it leaves them; the snapshot of those and of the models is written, then the
   * change `apply`s. A snapshot that cannot be written leaves the change unmade, as for a model change.
   * `change` and `apply` must not wait on this manager (register or unregister a model): this is its turn.
   */
  commitWorkflows<T>(change: () => WorkflowChange<T>): Promise<T> {
    return this.mutations.run(async () => {
      const { workflows, apply } = change();
      return this.commit(this.currentState(), apply, workflows);
    });
  }

  /**
   * Called once the server listens on every port: writes the snapshot, and from now on after every change.
   * Until then start-up writes none, so a start that fails leaves the snapshot of a server already running
   * from the same folder as it was.
   */
  serving(): Promise<void> {
    return this.mutations.run(async () => {
      this.publishing = true;
      await this.writeSnapshot(this.currentState());
    });
  }

  /** Unloads every version (shutdown); queued requests are answered with `reason`. */
  async unloadAll(reason?: SluiceError): Promise<void> {
    await Promise.all(this.deps.registry.all().map((v) => v.unload(reason)));
  }

  private checkHandler(handler: string | undefined): void {
    if (handler === undefined || this.handlerNames().includes(handler)) return;
    throw invalidArgument(`\`handler\` ${JSON.stringify(handler)} is no handler of this server; known handlers: ${this.handlerNames().join(', ')}`);
  }

  /**
   * Loads a start-up URL's versions with the settings `modelSettings` gives them: all at once (all or
   * nothing) when it gives none, else each version with its own.
   */
  private async loadConfigured(sources: readonly ModelSource[]): Promise<ModelVersion[]> {
    const settingsOf = (s: ModelSource): ModelVersionSettingsConfig | undefined => this.deps.config.modelSettings[s.manifest.name]?.[s.manifest.version];
    if (sources.every((s) => settingsOf(s) === undefined)) return this.loadAll(sources, {});
    const loaded: ModelVersion[] = [];
    for (const source of sources) {
      const { isDefault: _appliedAfterwards, ...settings } = settingsOf(source) ?? {};
      loaded.push(...(await this.loadAll([source], withoutUndefined(settings))));
    }
    return loaded;
  }

  /** Makes the versions `modelSettings` marks `isDefault` their model's default, where they loaded. */
  private applyConfiguredDefaults(): void {
    for (const [name, versions] of Object.entries(this.deps.config.modelSettings)) {
      for (const [version, settings] of Object.entries(versions)) {
        if (settings.isDefault === true && this.deps.registry.has(name, version)) this.deps.registry.setDefault(name, version);
      }
    }
  }

  /** The `models` to load at start-up, but for `modelName`: {@link loadModelDir} loads that. */
  private async startupUrls(): Promise<string[]> {
    const { models, modelStore, modelName } = this.deps.config;
    if (models !== 'all') return models.filter((url) => url !== modelName);
    const entries = await scanModelStore(modelStore);
    return [...new Set(entries.map((e) => e.storeName))];
  }

  /** `modelName` stands for `modelDir` where store names are taken, so no entry of the store may have it too. */
  private async checkModelNameFreeInStore(): Promise<void> {
    const { modelStore, modelName } = this.deps.config;
    if (modelName === '') return;
    const [taken] = await scanStoreName(modelStore, modelName);
    if (taken === undefined) return;
    throw new SluiceError(
      'SLUICE_CONFIG_INVALID',
      `\`modelName\` "${modelName}" is also the name of ${taken.path} in the model store; serve the model directory under another name, or take that entry out of the store`,
      { key: 'modelName' },
    );
  }

  /**
   * Loads `modelDir` under `modelName` unless start-up already has (from the snapshot). The server is
   * started to serve it, so a failure stops the start, naming the key, where a store model's failure
   * leaves the others serving.
   */
  private async loadModelDir(loaded: string[]): Promise<void> {
    const { modelDir, modelName } = this.deps.config;
    if (modelDir === '' || this.deps.registry.has(modelName)) return;
    try {
      const versions = await this.loadAll([await this.deps.sources.fromModelDir()], {});
      loaded.push(...versions.map((v) => `${v.name}@${v.version}`));
    } catch (error) {
      throw new SluiceError('SLUICE_CONFIG_INVALID', `\`modelDir\` cannot be served as model \`${modelName}\`: ${reasonOf(error)}`, { key: 'modelDir' }, { cause: error });
    }
  }

  private async restoreEntry(entry: SnapshotModel): Promise<ModelVersion[]> {
    const over = workerCountOverLimit({ minWorkers: entry.minWorkers, maxWorkers: entry.maxWorkers });
    if (over !== undefined) {
      throw new SluiceError(
        'SLUICE_SNAPSHOT_INVALID',
        `the snapshot gives ${entry.name}@${entry.version} \`${over.key}\` ${over.count}, more than the ${MAX_WORKERS} workers a model version may have; register it again, or unregister it`,
        { model: entry.name, version: entry.version },
      );
    }
    const batching = batchSettingsProblem(entry);
    if (batching !== undefined) {
      throw new SluiceError('SLUICE_SNAPSHOT_INVALID', `the snapshot's entry for ${entry.name}@${entry.version}: ${batching}; register it again, or unregister it`, {
        model: entry.name,
        version: entry.version,
      });
    }
    const sources = await this.snapshotSources(entry);
    const source = sources.find((s) => s.manifest.version === entry.version && (s.manifest.name === entry.name || sources.length === 1));
    if (source === undefined) {
      throw new SluiceError('SLUICE_SNAPSHOT_INVALID', `the snapshot lists ${entry.name}@${entry.version} from ${entry.url}, which no longer holds that version`);
    }
    const overrides = withoutUndefined({
      name: entry.name,
      handler: entry.handler,
      minWorkers: entry.minWorkers,
      maxWorkers: entry.maxWorkers,
      batchSize: entry.batchSize,
      maxBatchDelayMs: entry.maxBatchDelayMs,
      responseTimeoutMs: entry.responseTimeoutMs,
      jobQueueSize: entry.jobQueueSize,
      preferredBatchSizes: entry.preferredBatchSizes,
      priorityLevels: entry.priorityLevels,
      defaultPriority: entry.defaultPriority,
      queuePolicy: entry.queuePolicy,
      preserveOrdering: entry.preserveOrdering,
    });
    return this.loadAll([source], overrides);
  }

  /** The unpacked directory the snapshot recorded when it is still in the store, else `url` again. */
  private async snapshotSources(entry: SnapshotModel): Promise<ModelSource[]> {
    const store = this.deps.config.modelStore;
    if (entry.storePath !== undefined) {
      const dir = resolve(store, entry.storePath);
      // An object-store source without a model.yaml was kept as its model.onnx alone.
      const held = existsSync(join(dir, MANIFEST_FILE_NAME)) || (isObjectStoreUrl(entry.url) && existsSync(join(dir, MODEL_FILE_NAME)));
      if (isPathInside(store, dir) && held) return [await this.deps.sources.fromDirectory(dir, entry.url)];
    }
    return this.deps.sources.resolve(entry.url);
  }

  private async loadAll(sources: readonly ModelSource[], overrides: SettingOverrides): Promise<ModelVersion[]> {
    const seen = new Map<string, string>();
    for (const { manifest } of sources) {
      checkDefaultPriority(overrides, manifest);
      const name = overrides.name ?? manifest.name;
      const settings = versionSettingsOf(manifest, this.deps.loader.executors.find(manifest.executor), this.deps.config, overrides);
      checkPreferredBatchSizesAgainst(overrides, settings, `model \`${name}\` version \`${manifest.version}\``);
      checkModelNameFree(name, this.deps.workflowNamed);
      checkNotTwice(seen, name, manifest);
      if (this.deps.registry.has(name, manifest.version)) {
        throw new SluiceError(
          'SLUICE_MODEL_ALREADY_REGISTERED',
          `model \`${name}\` version \`${manifest.version}\` is already registered; unregister it first or register another version`,
        );
      }
    }
    const loaded: ModelVersion[] = [];
    try {
      for (const source of sources) loaded.push(await loadModelVersion(source.manifest, source.origin, overrides, this.deps.loader));
      // Checked once loaded, within this change's turn: workflow changes take turns too, so none can take
      // the name between here and the apply below.
      for (const version of loaded) checkModelNameFree(version.name, this.deps.workflowNamed);
      const now = this.currentState();
      const unrestored = this.unrestored.copy();
      // Registered again: the registration now stands for the entry start-up could not load.
      for (const version of loaded) unrestored.drop(version.name, version.version);
      const defaults = new Map([...now.defaults, ...this.defaultsOfNewModels(loaded)]);
      await this.commit({ ...now, versions: [...now.versions, ...loaded], defaults, unrestored }, () => {
        this.addAll(loaded);
      });
    } catch (error) {
      await Promise.all(loaded.map((v) => v.unload()));
      throw error;
    }
    return loaded;
  }

  /** The default of each model `loaded` brings in: the highest of its versions among them, as at start-up. */
  private defaultsOfNewModels(loaded: readonly ModelVersion[]): Map<string, string> {
    const defaults = new Map<string, string>();
    for (const name of new Set(loaded.map((v) => v.name).filter((n) => !this.deps.registry.has(n)))) {
      const highest = loaded.filter((v) => v.name === name).map((v) => v.version).sort(compareVersions).at(-1);
      if (highest !== undefined) defaults.set(name, highest);
    }
    return defaults;
  }

  /** Adds `loaded`, each model they bring in with the default {@link defaultsOfNewModels} gives it. */
  private addAll(loaded: readonly ModelVersion[]): void {
    const defaults = this.defaultsOfNewModels(loaded);
    for (const version of loaded) this.deps.registry.add(version);
    for (const [name, version] of defaults) this.deps.registry.setDefault(name, version);
  }

  private defaultToHighestVersions(): void {
    const registry = this.deps.registry;
    for (const name of registry.names()) {
      const versions = registry.versionsOf(name).map((v) => v.version).sort(compareVersions);
      const highest = versions.at(-1);
      if (highest !== undefined) registry.setDefault(name, highest);
    }
  }

  private removeAny(version: ModelVersion): void {
    const registry = this.deps.registry;
    if (registry.versionsOf(version.name).length > 1 && registry.defaultVersionOf(version.name) === version.version) {
      const other = registry.versionsOf(version.name).find((v) => v.version !== version.version);
      if (other) registry.setDefault(version.name, other.version);
    }
    registry.remove(version.name, version.version);
  }

  private loadedDefaultOf(name: string): string | undefined {
    return this.deps.registry.has(name) ? this.deps.registry.defaultVersionOf(name) : undefined;
  }

  /** The registered models as they are now. */
  private currentState(): ModelSetState {
    const registry = this.deps.registry;
    return {
      versions: registry.all(),
      settings: new Map(),
      defaults: new Map(registry.names().map((name) => [name, registry.defaultVersionOf(name)])),
      unrestored: this.unrestored,
    };
  }

  /**
   * Makes a change: writes the snapshot of `next`, the state the change leaves, then `apply`s it (nothing
   * awaits in between). A snapshot that cannot be written leaves the change unmade, so that the server and
   * its snapshot keep agreeing and the caller's error answer is the whole truth. An `apply` that throws
   * makes no change either; the snapshot it leaves ahead is replaced by the next one written (a workflow
   * change that took a model's name writes its own).
   */
  private async commit<T>(next: ModelSetState, apply: () => T, workflows?: readonly SnapshotWorkflow[]): Promise<T> {
    try {
      await this.writeSnapshot(next, workflows);
    } catch (error) {
      if (!isSluiceError(error)) throw error;
      throw new SluiceError(error.code, `the change was not made: ${error.message}`, error.details, { cause: error });
    }
    const applied = apply();
    this.unrestored = next.unrestored;
    return applied;
  }

  /**
   * Writes the snapshot of `state` and of `workflows` (default: the registered ones); does nothing before
   * {@link serving}.
   */
  private async writeSnapshot(state: ModelSetState, workflows = this.deps.workflowsForSnapshot?.()): Promise<void> {
    const store = this.deps.snapshots;
    if (store === undefined || !this.publishing) return;
    const snapshot: Snapshot = {
      format: 1,
      createdAt: new Date().toISOString(),
      models: snapshotModels(state, this.deps.config.modelStore),
      ...(workflows !== undefined ? { workflows: [...workflows] } : {}),
    };
    await store.write(snapshot);
  }
}
