import { SluiceError, isSluiceError } from '../../common/errors/index.js';

function stillRunning(running: readonly string[]): string {
  return running.length === 0 ? 'no node was running' : `still running: ${running.join(', ')}`;
}

/** The error of a run whose deadline passed, naming the nodes it cancelled. */
export function deadlineExceeded(workflow: string, timeoutMs: number, running: readonly string[]): SluiceError {
  return new SluiceError(
    'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
    `workflow \`${workflow}\` did not finish within ${timeoutMs} ms; ${stillRunning(running)}`,
    { workflow, timeoutMs, running },
  );
}

/**
 * The error of a run whose signal was aborted: the signal's own reason when it is a Sluice error (the
 * server stopping says so), else `SLUICE_WORKFLOW_CANCELLED` naming the nodes it cancelled.
 */
export function runCancelled(workflow: string, reason: unknown, running: readonly string[]): SluiceError {
  if (isSluiceError(reason)) return reason;
  return new SluiceError('SLUICE_WORKFLOW_CANCELLED', `workflow \`${workflow}\` was cancelled; ${stillRunning(running)}`, { workflow, running }, { cause: reason });
}

/** The reason node signals are aborted with when the run has its outputs and needs nothing more. */
export class RunFinished extends Error {
  override readonly name = 'RunFinished';

  constructor() {
    super('the workflow run has its outputs; this node is no longer needed');
  }
}
