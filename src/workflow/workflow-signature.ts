import type { WorkflowDefinition } from './definition/workflow-definition.js';
import type { WorkflowSignature } from './validator/workflow-catalog.js';

/** What other workflows see of `workflow` when they call it: its name, inputs and output names. */
export function workflowSignature(workflow: WorkflowDefinition): WorkflowSignature {
  return { name: workflow.name, inputs: workflow.inputs, outputs: Object.keys(workflow.outputs) };
}
