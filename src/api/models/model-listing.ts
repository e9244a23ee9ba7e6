import { SluiceError } from '../../sdk/errors/index.js';
import { ALL_VERSIONS } from '../../model-store/index.js';
import type { ModelAdministration } from '../../serving/core-interfaces/model-administration.js';
import type { UnrestoredModel } from '../../serving/unrestored-models.js';
import { compareVersions } from '../../serving/version-order.js';
import { describeVersion, type ModelVersionView } from './model-describe.js';

/** The status of a version the snapshot holds but start-up could not load. */
export const NOT_LOADED = 'NOT_LOADED';

/** One model of `GET /models`: TorchServe's two fields, and `status` only for a model none of whose versions loaded. */
export interface ModelListEntry {
  readonly modelName: string;
  readonly modelUrl: string;
  readonly status?: typeof NOT_LOADED;
}

/** `GET /models`, paged. */
export interface ModelList {
  readonly models: readonly ModelListEntry[];
  readonly nextPageToken?: string;
}

/**
 * `GET /models/{m}` of a version the snapshot holds but start-up could not load: what the snapshot
 * records of it, and why it did not load. It serves nothing; the next start tries it again.
 */
export interface NotLoadedVersionView {
  readonly modelName: string;
  readonly modelVersion: string;
  readonly modelUrl: string;
  readonly isDefault: boolean;
  readonly status: typeof NOT_LOADED;
  readonly loadError: string;
  readonly minWorkers: number;
  readonly maxWorkers: number;
  readonly batchSize: number;
  /** Milliseconds. */
  readonly maxBatchDelay: number;
  /** Seconds, when the snapshot records it. */
  readonly responseTimeout?: number;
  readonly jobQueueSize?: number;
  readonly workers: readonly [];
}

function notLoadedView({ entry, loadError }: UnrestoredModel): NotLoadedVersionView {
  return {
    modelName: entry.name,
    modelVersion: entry.version,
    modelUrl: entry.url,
    isDefault: entry.isDefault,
    status: NOT_LOADED,
    loadError,
    minWorkers: entry.minWorkers,
    maxWorkers: entry.maxWorkers,
    batchSize: entry.batchSize,
    maxBatchDelay: entry.maxBatchDelayMs,
    ...(entry.responseTimeoutMs !== undefined ? { responseTimeout: entry.responseTimeoutMs / 1000 } : {}),
    ...(entry.jobQueueSize !== undefined ? { jobQueueSize: entry.jobQueueSize } : {}),
    workers: [],
  };
}

/**
 * The model list of `GET /models` and gRPC `ListModels`: every registered model, and every model the
 * snapshot holds that start-up could not load (flagged `NOT_LOADED`), by name; `limit` from `start`.
 */
export function listModels(core: ModelAdministration, start: number, limit: number): ModelList {
  const { registry } = core;
  // A model with a loaded version is listed as before; one that is only kept, by its default entry.
  const notLoaded = new Map(
    core.manager
      .notLoaded()
      .filter(({ entry }) => entry.isDefault && !registry.has(entry.name))
      .map(({ entry }) => [entry.name, entry.url]),
  );
  const names = [...new Set([...registry.names(), ...notLoaded.keys()])].sort();
  const models = names.slice(start, start + limit).map((name): ModelListEntry => {
    if (registry.has(name)) return { modelName: name, modelUrl: registry.resolve(name).origin.url };
    return { modelName: name, modelUrl: notLoaded.get(name) ?? '', status: NOT_LOADED };
  });
  return { models, ...(start + limit < names.length ? { nextPageToken: String(start + limit) } : {}) };
}

/**
 * The descriptions of `GET /models/{m}[/{v}]` and gRPC `DescribeModel`: the default version (`version`
 * undefined), one version, or every version (`all`), the versions start-up could not load included. A
 * model with a loaded version is described by it when no version is given. Throws the registry's
 * not-found errors for anything else.
 */
export function describeModel(core: ModelAdministration, name: string, version: string | undefined): (ModelVersionView | NotLoadedVersionView)[] {
  const { registry } = core;
  const notLoaded = core.manager.notLoaded().filter((u) => u.entry.name === name);
  const loaded = registry.has(name);
  if (version === ALL_VERSIONS) {
    if (notLoaded.length === 0) return registry.versionsOf(name).map((v) => describeVersion(v, registry));
    const views = [...(loaded ? registry.versionsOf(name).map((v) => describeVersion(v, registry)) : []), ...notLoaded.map(notLoadedView)];
    return views.sort((a, b) => compareVersions(a.modelVersion, b.modelVersion));
  }
  const kept = notLoaded.find((u) => (version === undefined ? !loaded && u.entry.isDefault : u.entry.version === version && !registry.has(name, version)));
  if (kept !== undefined) return [notLoadedView(kept)];
  if (version !== undefined && notLoaded.length > 0 && !registry.has(name, version)) throw noSuchVersion(core, name, version, notLoaded);
  return [describeVersion(registry.resolve(name, version), registry)];
}

/** The registry's answer to a version that does not exist, listing the versions not loaded too. */
function noSuchVersion(core: ModelAdministration, name: string, version: string, notLoaded: readonly UnrestoredModel[]): SluiceError {
  const loaded = core.registry.has(name) ? core.registry.versionsOf(name).map((v) => v.version) : [];
  const versions = [...loaded, ...notLoaded.map((u) => `${u.entry.version} (${NOT_LOADED})`)].sort(compareVersions);
  return new SluiceError('SLUICE_MODEL_VERSION_NOT_FOUND', `model \`${name}\` has no version \`${version}\`; its versions: ${versions.join(', ')}`, {
    model: name,
    version,
  });
}
