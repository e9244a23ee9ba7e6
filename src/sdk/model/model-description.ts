import type { TensorSpec } from '../tensor/index.js';

/** What a plugin may know about a model version: read-only facts, never the runtime session. */
export interface ModelDescription {
  readonly name: string;
  readonly version: string;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  /** Class labels from the manifest's `labels` file, in class-index order. */
  readonly labels?: readonly string[];
  /**
   * Absolute path of the directory holding the version's `model.yaml`: files a handler reads (a
   * tokenizer) are named in its settings relative to it. Absent for models not loaded from a directory.
   */
  readonly directory?: string;
}
