import type { WorkflowDefinition, WorkflowNode } from '../definition/workflow-definition.js';
import type { ParsedWorkflow } from '../parser/parsed-workflow.js';
import { ProblemCollector } from '../problems/problem-collector.js';
import { workflowInvalid } from '../problems/workflow-invalid-error.js';
import type { WorkflowProblem } from '../problems/workflow-problem.js';
import { buildDraft } from './build-draft.js';
import { checkCallDepth } from './check-call-depth.js';
import { checkConditions } from './check-conditions.js';
import { checkConnections } from './check-connections.js';
import { checkCycles } from './check-cycles.js';
import { checkForEach } from './check-for-each.js';
import { checkNodeInputs } from './check-node-inputs.js';
import { checkReachability } from './check-reachability.js';
import { checkReferences } from './check-references.js';
import { resolveTargets } from './resolve-targets.js';
import { reportSchemaErrors } from './schema-problems.js';
import type { ValidationContext } from './validation-context.js';
import type { WorkflowCatalog } from './workflow-catalog.js';
import type { WorkflowDraft } from './workflow-draft.js';
import { workflowSchema } from './workflow-schema.js';
import { setOwn } from '../../sdk/collections/own-property.js';

/** Options of {@link validateWorkflow}. */
export interface ValidateWorkflowOptions {
  /**
   * The name the workflow is served under, when it is not its `metadata.name` (a registration's
   * `workflow_name`): the definition takes it, and a workflow node calling it is a call to itself.
   */
  readonly name?: string;
}

/** A workflow that passed validation, and what is worth knowing about it all the same. */
export interface ValidatedWorkflow {
  readonly workflow: WorkflowDefinition;
  readonly warnings: readonly WorkflowProblem[];
}

function definitionOf(draft: WorkflowDraft, context: ValidationContext): WorkflowDefinition {
  const nodes: Record<string, WorkflowNode> = {};
  for (const node of draft.nodes.values()) {
    const { at: _at, when: _when, ...rest } = node;
    const when = context.conditions.get(node.id);
    const ports = context.ports.get(node.id) ?? { inputs: [], outputs: [] };
    setOwn(nodes, node.id, { ...rest, ports, ...(when !== undefined && { when }) });
  }
  return {
    name: draft.name,
    version: draft.version,
    ...(draft.description !== undefined && { description: draft.description }),
    file: draft.file,
    ...(draft.responseTimeoutMs !== undefined && { responseTimeoutMs: draft.responseTimeoutMs }),
    inputs: draft.inputs,
    nodes,
    outputs: draft.outputs,
  };
}

/**
 * Checks a parsed workflow against `schemas/workflow.schema.json` and then for meaning: references,
 * `when` expressions, the catalog's models, handlers and workflows, `forEach` sources, tensor datatypes
 * and shapes, cycles, and how deep chains of sub-workflows nest. Every problem is found in one pass;
 * when there is any, throws `SLUICE_WORKFLOW_INVALID` listing them (and the warnings). Otherwise returns
 * the definition with defaults applied, and warnings (nodes that contribute to no output).
 */
export function validateWorkflow(parsed: ParsedWorkflow, catalog: WorkflowCatalog, options: ValidateWorkflowOptions = {}): ValidatedWorkflow {
  const problems = new ProblemCollector(parsed.file, parsed.text, parsed.sourceMap);
  const schema = workflowSchema();
  if (!schema(parsed.document)) reportSchemaErrors(schema.errors ?? [], problems);
  const draft = buildDraft(parsed.document, parsed.file, problems, options.name);
  const context: ValidationContext = { draft, catalog, problems, ports: new Map(), conditions: new Map(), unknownNodeReferenced: false };
  checkConditions(context);
  resolveTargets(context);
  checkCallDepth(context);
  checkNodeInputs(context);
  checkReferences(context);
  checkForEach(context);
  checkConnections(context);
  checkCycles(context);
  checkReachability(context);
  const errors = problems.errors;
  if (errors.length > 0) throw workflowInvalid(parsed.file, errors, problems.warnings);
  return { workflow: definitionOf(draft, context), warnings: problems.warnings };
}
