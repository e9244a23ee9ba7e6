import type { ModelRegistry } from '../../../serving/model-registry.js';
import type { RegisteredWorkflow, WorkflowRegistry } from '../../../workflow/serving/workflow-registry.js';
import { formatWorkflowProblem, type WorkflowInputSpec } from '../../../workflow/index.js';

/** One node as `GET /workflows/{name}` shows it. */
export interface WorkflowNodeView {
  readonly id: string;
  readonly kind: 'model' | 'handler' | 'workflow';
  readonly target: string;
  readonly version?: string;
  readonly stage: number;
  readonly dependsOn: readonly string[];
  /** Whether what the node runs is registered and ready now. */
  readonly ready: boolean;
}

/** `GET /workflows/{name}`. */
export interface WorkflowView {
  readonly workflowName: string;
  readonly workflowVersion: string;
  readonly workflowUrl: string;
  readonly description?: string;
  readonly registeredAt: string;
  /** The longest one run may take: the file's `responseTimeoutMs`, else the server's. */
  readonly responseTimeoutMs: number;
  readonly ready: boolean;
  readonly inputs: Readonly<Record<string, WorkflowInputSpec>>;
  readonly outputs: readonly string[];
  readonly nodes: readonly WorkflowNodeView[];
  readonly stages: readonly (readonly string[])[];
  readonly warnings: readonly string[];
}

/**
 * The describe view of a workflow: its nodes with the models and versions they use and their readiness,
 * and how long one run may take (`serverResponseTimeoutMs` when its file sets no `responseTimeoutMs`).
 */
export function describeWorkflow(entry: RegisteredWorkflow, models: ModelRegistry, workflows: WorkflowRegistry, serverResponseTimeoutMs: number): WorkflowView {
  const { plan } = entry;
  const nodes = plan.order.map((id): WorkflowNodeView => {
    const planned = plan.nodes[id];
    const target = planned?.node.target;
    const base = { id, stage: planned?.stage ?? 0, dependsOn: planned?.dependencies ?? [] };
    if (target === undefined) return { ...base, kind: 'handler', target: '?', ready: false };
    switch (target.kind) {
      case 'model': {
        const ready = models.has(target.model, target.version) && models.resolve(target.model, target.version).isReady();
        const version = models.has(target.model, target.version) ? models.resolve(target.model, target.version).version : target.version;
        return { ...base, kind: 'model', target: target.model, ...(version !== undefined ? { version } : {}), ready };
      }
      case 'handler':
        return { ...base, kind: 'handler', target: target.handler, ready: true };
      case 'workflow':
        return { ...base, kind: 'workflow', target: target.workflow, ready: workflows.find(target.workflow) !== undefined };
    }
  });
  return {
    workflowName: entry.name,
    workflowVersion: entry.version,
    workflowUrl: entry.url,
    ...(plan.workflow.description !== undefined ? { description: plan.workflow.description } : {}),
    registeredAt: entry.registeredAt.toISOString(),
    responseTimeoutMs: plan.workflow.responseTimeoutMs ?? serverResponseTimeoutMs,
    ready: nodes.every((n) => n.ready),
    inputs: plan.workflow.inputs,
    outputs: Object.keys(plan.workflow.outputs),
    nodes,
    stages: plan.stages,
    warnings: entry.warnings.map(formatWorkflowProblem),
  };
}
