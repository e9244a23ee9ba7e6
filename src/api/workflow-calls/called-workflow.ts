import { SluiceError } from '../../sdk/errors/index.js';
import type { WorkflowLookup } from '../../serving/core-interfaces/workflow-lookup.js';
import type { RegisteredWorkflow } from '../../workflow/serving/workflow-registry.js';

/** How a client of one transport calls a workflow without naming its version. */
export interface UnversionedCall {
  /** The advice for workflow `name`: `send it to POST /v2/models/{name}/infer`, `leave model_version empty`. */
  unversioned(name: string): string;
}

/**
 * The workflow an inference call naming `name` runs, or undefined when a model has that name (models
 * come first) or nothing does. A workflow is served at one version, the `metadata.version` its answers
 * carry: a call may name that version or none (`version` undefined), and another is refused with
 * `SLUICE_MODEL_VERSION_NOT_FOUND` rather than told that no model has the name, which says how to call it
 * without a version on the caller's transport (asked only then).
 */
export function calledWorkflow(core: WorkflowLookup, name: string, version: string | undefined, transport: UnversionedCall): RegisteredWorkflow | undefined {
  if (core.registry.has(name)) return undefined;
  const workflow = core.workflows.find(name);
  if (workflow === undefined || version === undefined || version === workflow.version) return workflow;
  throw new SluiceError(
    'SLUICE_MODEL_VERSION_NOT_FOUND',
    `\`${name}\` is a workflow served at version \`${workflow.version}\` only (got version \`${version}\`); ${transport.unversioned(name)}`,
    { workflow: name, version, workflowVersion: workflow.version },
  );
}
