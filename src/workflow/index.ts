/**
 * Workflows: YAML graphs of model, handler and sub-workflow nodes, in four pure stages —
 * parse → validate → plan → execute — and diagrams of a plan (Mermaid, DOT). See docs/workflows.md.
 */
export { loadWorkflow, type LoadedWorkflow, type LoadWorkflowOptions } from './load-workflow.js';
export { workflowSignature } from './workflow-signature.js';

export { parseWorkflow, type ParseWorkflowOptions } from './parser/parse-workflow.js';
export type { ParsedWorkflow } from './parser/parsed-workflow.js';
export { DEFAULT_PARSE_LIMITS, type WorkflowParseLimits } from './parser/parse-limits.js';

export { validateWorkflow, type ValidatedWorkflow, type ValidateWorkflowOptions } from './validator/validate-workflow.js';
export type { HandlerDescription, WorkflowCatalog, WorkflowSignature } from './validator/workflow-catalog.js';
export { createStaticCatalog, type StaticCatalogContents } from './validator/static-catalog.js';

export { planWorkflow } from './planner/plan-workflow.js';
export type { PlannedNode, WorkflowPlan } from './planner/workflow-plan.js';

export { executeWorkflow } from './executor/execute-workflow.js';

export {
  bindingText,
  workflowDiagram,
  type DiagramEdge,
  type DiagramEdgeKind,
  type DiagramVertex,
  type DiagramVertexKind,
  type WorkflowDiagram,
  type WorkflowDiagramOptions,
} from './diagram/workflow-diagram.js';
export { mermaidText, printMermaid } from './diagram/mermaid-printer.js';
export { dotString, printDot } from './diagram/dot-printer.js';
export type { ModelCall, ModelCaller, NodeEndEvent, WorkflowServices } from './executor/workflow-services.js';
export type {
  ExecuteOptions,
  NodeStatus,
  NodeTrace,
  ObservedNodeStatus,
  ProgressConsumer,
  NodeProgressConsumer,
  WorkflowNodeProgress,
  WorkflowClock,
  WorkflowDebug,
  WorkflowNodeObservation,
  WorkflowObserver,
  WorkflowProgress,
  WorkflowResult,
  WorkflowRunObservation,
} from './executor/execute-options.js';
export { checkRequestInputs } from './executor/request-inputs.js';

export type { WorkflowDefinition, WorkflowNode } from './definition/workflow-definition.js';
export type { WorkflowInputSpec, WorkflowInputType } from './definition/workflow-input-spec.js';
export type { Binding, ValueSource } from './definition/value-source.js';
export type { NodeTarget } from './definition/node-target.js';
export type { NodePorts, PortSpec } from './definition/node-ports.js';
export type { ErrorPolicy, NodePolicies, RetryPolicy } from './definition/node-policies.js';
export type { Condition, ConditionReference } from './definition/condition.js';
export { formatWorkflowProblem, type ProblemSeverity, type WorkflowProblem } from './problems/workflow-problem.js';
export { MAX_LISTED_PROBLEMS } from './problems/workflow-invalid-error.js';
