import { SluiceError, isSluiceError } from '../../common/errors/index.js';
import { describeTarget } from '../definition/node-target.js';
import type { WorkflowNode } from '../definition/workflow-definition.js';
import { AttemptTimeout } from './attempt-timeout.js';
import { AttemptsFailed } from './run-attempts.js';

/** Categories a client can act on (retry later, the deadline passed): kept when a node fails with them. */
const PASSED_THROUGH = new Set(['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED']);

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error a failed node fails its workflow with, naming the workflow, the node and the cause: a
 * timeout of the last attempt is `SLUICE_WORKFLOW_NODE_TIMEOUT`; an error a client can act on
 * (unavailable, exhausted, deadline) keeps its code; anything else is `SLUICE_WORKFLOW_NODE_FAILED`.
 */
export function nodeFailure(workflow: string, node: WorkflowNode, error: unknown): SluiceError {
  const cause = error instanceof AttemptsFailed ? error.lastError : error;
  const attempts = error instanceof AttemptsFailed ? error.attempts : 1;
  const name = `workflow \`${workflow}\` node \`${node.id}\` (${describeTarget(node.target)})`;
  const tries = attempts === 1 ? '' : ` after ${attempts} attempts`;
  const details = { workflow, node: node.id, attempts };
  if (cause instanceof AttemptTimeout) {
    return new SluiceError('SLUICE_WORKFLOW_NODE_TIMEOUT', `${name} did not answer within ${cause.timeoutMs} ms${tries}`, { ...details, timeoutMs: cause.timeoutMs }, { cause });
  }
  if (isSluiceError(cause) && PASSED_THROUGH.has(cause.category)) {
    return new SluiceError(cause.code, `${name}${tries}: ${cause.message}`, { ...cause.details, ...details }, { cause });
  }
  const causeCode = isSluiceError(cause) ? { causeCode: cause.code } : {};
  return new SluiceError('SLUICE_WORKFLOW_NODE_FAILED', `${name} failed${tries}: ${reasonOf(cause)}`, { ...details, ...causeCode }, { cause });
}
