import { relative } from 'node:path';
import { isPathInside, type SnapshotModel } from '../model-store/index.js';
import type { ModelVersion } from './model-version.js';
import type { UnrestoredModels } from './unrestored-models.js';
import { compareVersions } from './version-order.js';
import type { VersionSettings } from './version-settings.js';

/**
 * The registered models as a snapshot records them: as they are, or as a change is about to leave them.
 * The model manager writes the snapshot of a change before it makes the change, so that a snapshot that
 * cannot be written leaves the change unmade and the server as its snapshot says.
 */
export interface ModelSetState {
  /** The loaded versions. */
  readonly versions: readonly ModelVersion[];
  /** The settings a version is recorded with where they are not its current ones (a scale about to be made). */
  readonly settings: ReadonlyMap<ModelVersion, VersionSettings>;
  /** The default version of each model that has loaded versions. */
  readonly defaults: ReadonlyMap<string, string>;
  /** The snapshot entries start-up could not load. */
  readonly unrestored: UnrestoredModels;
}

/** Models by name, then versions in natural order: the order of the registry's listing. */
function byNameThenVersion(a: ModelVersion, b: ModelVersion): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return compareVersions(a.version, b.version);
}

function entryOf(state: ModelSetState, v: ModelVersion, modelStore: string): SnapshotModel {
  const s = state.settings.get(v) ?? v.settings;
  return {
    name: v.name,
    version: v.version,
    url: v.origin.url,
    ...(isPathInside(modelStore, v.origin.dir) ? { storePath: relative(modelStore, v.origin.dir) } : {}),
    isDefault: state.defaults.get(v.name) === v.version,
    ...(v.handlerOverride !== undefined ? { handler: v.handlerOverride } : {}),
    minWorkers: s.minWorkers,
    maxWorkers: s.maxWorkers,
    batchSize: s.batchSize,
    maxBatchDelayMs: s.maxBatchDelayMs,
    responseTimeoutMs: s.responseTimeoutMs,
    jobQueueSize: s.jobQueueSize,
    preferredBatchSizes: s.preferredBatchSizes,
    priorityLevels: s.priorityLevels,
    defaultPriority: s.defaultPriority,
    queuePolicy: s.queuePolicy,
    preserveOrdering: s.preserveOrdering,
  };
}

/**
 * The snapshot entries of `state`: the loaded versions (with `storePath` when they lie in `modelStore`),
 * then the entries start-up could not load, kept for the next start.
 */
export function snapshotModels(state: ModelSetState, modelStore: string): SnapshotModel[] {
  return [
    ...[...state.versions].sort(byNameThenVersion).map((v) => entryOf(state, v, modelStore)),
    ...state.unrestored.forSnapshot((name) => state.defaults.get(name)),
  ];
}
