import { isSluiceError, SluiceError } from '../../sdk/errors/index.js';
import { formatWorkflowProblem, loadWorkflow, MAX_LISTED_PROBLEMS, workflowSignature, type WorkflowCatalog, type WorkflowProblem } from '../index.js';
import { withLocalHandlers } from './local-handlers-catalog.js';
import type { RegisteredWorkflow } from './workflow-registry.js';

/** `catalog` with `entry` in place of the registered workflow of its name. */
function withWorkflow(catalog: WorkflowCatalog, entry: RegisteredWorkflow): WorkflowCatalog {
  return {
    ...catalog,
    workflow: (name) => (name === entry.name ? { ...workflowSignature(entry.plan.workflow), name } : catalog.workflow(name)),
  };
}

/** The problems `caller` has when validated against `catalog`; undefined when it has none. */
function problemsOf(caller: RegisteredWorkflow, catalog: WorkflowCatalog): readonly WorkflowProblem[] | undefined {
  const local = caller.localHandlers;
  try {
    loadWorkflow(caller.text, { file: caller.plan.workflow.file, catalog: local === undefined ? catalog : withLocalHandlers(catalog, local), name: caller.name });
    return undefined;
  } catch (error) {
    if (!isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) throw error;
    const problems = error.details['problems'];
    return Array.isArray(problems) ? (problems as WorkflowProblem[]) : [];
  }
}

/**
 * Refuses to replace a registered workflow with `entry` when one of `callers` (the registered workflows
 * that call it) would no longer be valid with it — an input it gives that the new version no longer has, a
 * required input it does not give, an output it reads that is gone — with `SLUICE_WORKFLOW_INVALID` naming
 * them and listing their problems. Their runs would otherwise fail, or quietly miss an output, from the
 * moment of the replacement. A caller that is invalid with the registered version too is not the
 * replacement's doing and does not count.
 */
export function checkCallersAccept(entry: RegisteredWorkflow, callers: readonly RegisteredWorkflow[], catalog: WorkflowCatalog): void {
  const replaced = withWorkflow(catalog, entry);
  const broken: { readonly name: string; readonly problems: readonly WorkflowProblem[] }[] = [];
  for (const caller of callers) {
    const problems = problemsOf(caller, replaced);
    if (problems !== undefined && problemsOf(caller, catalog) === undefined) broken.push({ name: caller.name, problems });
  }
  if (broken.length === 0) return;
  const names = broken.map((caller) => `\`${caller.name}\``).join(', ');
  const problems = broken.flatMap((caller) => caller.problems).slice(0, MAX_LISTED_PROBLEMS);
  throw new SluiceError(
    'SLUICE_WORKFLOW_INVALID',
    [
      `cannot replace workflow \`${entry.name}\`: ${broken.length === 1 ? 'workflow' : 'workflows'} ${names}, which ${broken.length === 1 ? 'calls' : 'call'} it, would no longer be valid with the new version; keep the inputs and outputs its callers use, or change or unregister the callers first:`,
      ...problems.map(formatWorkflowProblem),
    ].join('\n'),
    { workflow: entry.name, callers: broken.map((caller) => caller.name), problems, warnings: [] },
  );
}

/**
 * Refuses to unregister workflow `name` while `callers` (the registered workflows that call it) are
 * registered, with `SLUICE_WORKFLOW_IN_USE` naming them: their every run would fail without it.
 */
export function checkWorkflowNotCalled(name: string, callers: readonly RegisteredWorkflow[]): void {
  if (callers.length === 0) return;
  const names = callers.map((caller) => caller.name);
  const one = names.length === 1;
  throw new SluiceError(
    'SLUICE_WORKFLOW_IN_USE',
    `cannot unregister workflow \`${name}\`: ${one ? 'workflow' : 'workflows'} ${names.map((n) => `\`${n}\``).join(', ')} ${one ? 'calls' : 'call'} it and would fail without it; unregister ${one ? 'the caller' : 'those callers'} first (${names.map((n) => `DELETE /workflows/${n}`).join(', ')}), then this workflow`,
    { workflow: name, callers: names },
  );
}
