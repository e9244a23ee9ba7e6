import { SluiceError } from '../../common/errors/index.js';
import { formatWorkflowProblem, type WorkflowProblem } from './workflow-problem.js';

/**
 * The error for a workflow file that cannot be loaded: the message lists every problem on its own line;
 * `details.problems` and `details.warnings` carry them structured for API clients and editors.
 */
export function workflowInvalid(file: string, problems: readonly WorkflowProblem[], warnings: readonly WorkflowProblem[] = []): SluiceError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const message = [`workflow ${file} is invalid (${count}):`, ...problems.map(formatWorkflowProblem)].join('\n');
  return new SluiceError('SLUICE_WORKFLOW_INVALID', message, { source: file, problems, warnings });
}
