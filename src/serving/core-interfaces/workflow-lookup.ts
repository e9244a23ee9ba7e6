import type { WorkflowRegistry } from '../../workflow/serving/workflow-registry.js';
import type { ModelLookup } from './model-lookup.js';

/** What an API reads to tell a model from a workflow of the same name: the models and the workflows. */
export interface WorkflowLookup extends ModelLookup {
  readonly workflows: WorkflowRegistry;
}
