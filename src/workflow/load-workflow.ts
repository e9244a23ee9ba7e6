import type { WorkflowParseLimits } from './parser/parse-limits.js';
import { parseWorkflow } from './parser/parse-workflow.js';
import { planWorkflow } from './planner/plan-workflow.js';
import type { WorkflowPlan } from './planner/workflow-plan.js';
import type { WorkflowProblem } from './problems/workflow-problem.js';
import { validateWorkflow } from './validator/validate-workflow.js';
import type { WorkflowCatalog } from './validator/workflow-catalog.js';

/** Options of {@link loadWorkflow}. */
export interface LoadWorkflowOptions {
  /** The name problems are reported under: a file name or URL. */
  readonly file: string;
  readonly catalog: WorkflowCatalog;
  readonly limits?: Partial<WorkflowParseLimits>;
  /** The name the workflow is served under, when it is not its `metadata.name`. */
  readonly name?: string;
}

/** A workflow ready to run, and the warnings its validation gave. */
export interface LoadedWorkflow {
  readonly plan: WorkflowPlan;
  readonly warnings: readonly WorkflowProblem[];
}

/**
 * Parses, validates and plans a workflow file in one step. Throws `SLUICE_WORKFLOW_INVALID` listing
 * every problem with `file:line:col` (`details.problems`, `details.warnings`).
 */
export function loadWorkflow(text: string, options: LoadWorkflowOptions): LoadedWorkflow {
  const parsed = parseWorkflow(text, { file: options.file, ...(options.limits !== undefined && { limits: options.limits }) });
  const { workflow, warnings } = validateWorkflow(parsed, options.catalog, options.name === undefined ? {} : { name: options.name });
  return { plan: planWorkflow(workflow), warnings };
}
