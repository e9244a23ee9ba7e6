import type { WorkflowDefinition, WorkflowNode } from '../definition/workflow-definition.js';

/** One node of a plan: the validated node and its place in the graph. */
export interface PlannedNode {
  readonly node: WorkflowNode;
  /** The nodes it reads (inputs, `forEach`, `when`): it starts once they have all settled. */
  readonly dependencies: readonly string[];
  /** The nodes whose values it takes in (inputs, `forEach`): it is skipped when all of them were. */
  readonly dataDependencies: readonly string[];
  /** The nodes that read it. */
  readonly dependents: readonly string[];
  /** Its stage: one more than the latest stage among its dependencies (0 when it depends on none). */
  readonly stage: number;
}

/**
 * An immutable (deeply frozen) execution plan: the definition, every node's dependencies and
 * dependents, a topological order, and the stages of work that can run in parallel. The executor runs a
 * node as soon as its dependencies settle; stages describe the shape of the graph (debug, metrics).
 */
export interface WorkflowPlan {
  readonly workflow: WorkflowDefinition;
  readonly nodes: Readonly<Record<string, PlannedNode>>;
  readonly order: readonly string[];
  readonly stages: readonly (readonly string[])[];
}
