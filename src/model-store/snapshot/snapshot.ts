/** The snapshot layout version written by this Sluice and the only one it reads. */
export const SNAPSHOT_FORMAT = 1;

/** One registered model version as a snapshot records it. */
export interface SnapshotModel {
  readonly name: string;
  readonly version: string;
  /** What it was registered from: a model-store name or an allowed http(s) URL. */
  readonly url: string;
  /**
   * The directory the version was loaded from, relative to the model store; restores prefer it so a
   * downloaded model is not fetched again.
   */
  readonly storePath?: string;
  readonly isDefault: boolean;
  /** The handler the registration chose instead of the manifest's. */
  readonly handler?: string;
  readonly minWorkers: number;
  readonly maxWorkers: number;
  readonly batchSize: number;
  readonly maxBatchDelayMs: number;
  readonly responseTimeoutMs?: number;
  readonly jobQueueSize?: number;
  readonly preferredBatchSizes?: readonly number[];
  readonly priorityLevels?: number;
  readonly defaultPriority?: number;
  readonly queuePolicy?: 'reject' | 'delay';
  readonly preserveOrdering?: boolean;
}

/** One registered workflow as a snapshot records it. */
export interface SnapshotWorkflow {
  readonly name: string;
  /** What it was registered from: a workflow-store name or an allowed http(s) URL. */
  readonly url: string;
  /** For a TorchServe spec: its handler module in the workflow store. */
  readonly handler?: string;
  /**
   * For a workflow from an object store: its downloaded copy in `.sources/`, relative to the model store;
   * restores read it while it is there, so the object is not fetched again.
   */
  readonly storePath?: string;
  /**
   * For a TorchServe spec: the model versions its registration registered itself (`<workflow>__<model>`),
   * which are unregistered with it; absent when none.
   */
  readonly models?: readonly { readonly name: string; readonly version: string }[];
}

/** The registered models of a running server, as `schemas/snapshot.schema.json` describes them. */
export interface Snapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  /** ISO-8601 UTC time the snapshot was taken. */
  readonly createdAt: string;
  readonly models: readonly SnapshotModel[];
  /** The registered workflows, restored after the models. */
  readonly workflows?: readonly SnapshotWorkflow[];
}
