import type { ModelRegistry } from '../model-registry.js';

/** What an API reads of the loaded models: which exist, by name and version. */
export interface ModelLookup {
  readonly registry: ModelRegistry;
}
