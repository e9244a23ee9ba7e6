/** Whether a problem stops the workflow from loading (`error`) or is only worth knowing (`warning`). */
export type ProblemSeverity = 'error' | 'warning';

/**
 * One problem found in a workflow file, positioned in the source so that editors and people can jump to
 * it. JSON-safe: it travels in `SluiceError.details`.
 */
export interface WorkflowProblem {
  readonly severity: ProblemSeverity;
  /** The file (or other source name) the workflow was read from. */
  readonly file: string;
  /** 1-based line and column of the offending key or value. */
  readonly line: number;
  readonly column: number;
  /** The key path in the document, `nodes.detect.inputs.x` (`(top level)` for the root). */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
}

/** `file:line:col: severity: path: message; hint` — one line, the way compilers print problems. */
export function formatWorkflowProblem(problem: WorkflowProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${problem.path}: ${problem.message}; ${problem.hint}`;
}
