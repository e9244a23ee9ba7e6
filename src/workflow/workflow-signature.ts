import type { WorkflowDefinition } from './definition/workflow-definition.js';
import type { WorkflowSignature } from './validator/workflow-catalog.js';

/** The workflows the `workflow:` nodes of `workflow` call, each once. */
function calledWorkflows(workflow: WorkflowDefinition): string[] {
  const called = Object.values(workflow.nodes).flatMap((node) => (node.target.kind === 'workflow' ? [node.target.workflow] : []));
  return [...new Set(called)];
}

/** What other workflows see of `workflow` when they call it: its name, inputs, output names and the workflows it calls. */
export function workflowSignature(workflow: WorkflowDefinition): WorkflowSignature {
  return { name: workflow.name, inputs: workflow.inputs, outputs: Object.keys(workflow.outputs), calls: calledWorkflows(workflow) };
}
