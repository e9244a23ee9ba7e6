import type { SluiceConfig } from '../../config/index.js';
import type { WorkflowManager } from '../../workflow/serving/workflow-manager.js';
import type { WorkflowLookup } from './workflow-lookup.js';

/**
 * What the workflow management API needs of the serving core: the workflows and models they call, the
 * workflow manager, and the response timeout a workflow's description shows.
 */
export interface WorkflowAdministration extends WorkflowLookup {
  readonly workflowManager: WorkflowManager;
  readonly config: Pick<SluiceConfig, 'responseTimeoutMs'>;
}
