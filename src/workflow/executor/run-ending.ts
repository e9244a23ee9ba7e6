import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import type { RunDeadline } from './run-deadline.js';

function stillRunning(running: readonly string[]): string {
  return running.length === 0 ? 'no node was running' : `still running: ${running.join(', ')}`;
}

/** How the message of a passed deadline names its limit, and what to change when it is the workflow's. */
function limitText({ timeoutMs, source }: RunDeadline): { within: string; fix: string } {
  switch (source) {
    case 'request':
      return { within: `${timeoutMs} ms`, fix: '' };
    case 'workflow':
      return {
        within: `its responseTimeoutMs of ${timeoutMs} ms`,
        fix: "; raise `responseTimeoutMs` in the workflow file, or lower its nodes' `timeoutMs`, `retry.attempts` and `retry.backoffMs`",
      };
    case 'server':
      return {
        within: `the server's responseTimeoutMs of ${timeoutMs} ms`,
        fix: '; set `responseTimeoutMs` in the workflow file to give its runs longer',
      };
  }
}

/**
 * The error of a run whose deadline passed, naming the limit (`details.limit`: `request`, `workflow` or
 * `server`) and the nodes it cancelled.
 */
export function deadlineExceeded(workflow: string, deadline: RunDeadline, running: readonly string[]): SluiceError {
  const { within, fix } = limitText(deadline);
  return new SluiceError(
    'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
    `workflow \`${workflow}\` did not finish within ${within}; ${stillRunning(running)}${fix}`,
    { workflow, timeoutMs: deadline.timeoutMs, limit: deadline.source, running },
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
