import { SluiceError } from '../../sdk/errors/index.js';
import { clipText, MAX_PROBLEM_TEXT_CHARS } from './clip-text.js';
import { formatWorkflowProblem, type WorkflowProblem } from './workflow-problem.js';

/**
 * Most problems (and, apart, warnings) a refusal lists: the first ones in the file say what is wrong,
 * and a file of a million bad keys must not make an answer or a log line of many megabytes.
 */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * The error for a workflow file that cannot be loaded: the message counts the problems and lists the
 * first {@link MAX_LISTED_PROBLEMS}, each on its own line, then says how many more there are;
 * `details.problems` and `details.warnings` carry the first ones structured for API clients and editors.
 */
export function workflowInvalid(file: string, problems: readonly WorkflowProblem[], warnings: readonly WorkflowProblem[] = []): SluiceError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  const lines = [`workflow ${clipText(file, MAX_PROBLEM_TEXT_CHARS)} is invalid (${count}):`, ...listed.map(formatWorkflowProblem)];
  if (more > 0) lines.push(`… and ${more} more`);
  return new SluiceError('SLUICE_WORKFLOW_INVALID', lines.join('\n'), { source: file, problems: listed, warnings: warnings.slice(0, MAX_LISTED_PROBLEMS) });
}
