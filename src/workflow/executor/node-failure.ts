import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { describeTarget } from '../definition/node-target.js';
import type { WorkflowNode } from '../definition/workflow-definition.js';
import type { ValueSource } from '../definition/value-source.js';
import { AttemptTimeout } from './attempt-timeout.js';
import { AttemptsFailed } from './run-attempts.js';

/** Categories a client can act on (retry later, the deadline passed): kept when a node fails with them. */
const PASSED_THROUGH = new Set(['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED']);

/** Refusals of the data a call was given: kept when the node was called with the client's data alone. */
const DATA_REFUSALS = new Set<string>([
  'SLUICE_REQUEST_INVALID',
  'SLUICE_TENSOR_MISSING_INPUT',
  'SLUICE_TENSOR_DATATYPE_MISMATCH',
  'SLUICE_TENSOR_SHAPE_MISMATCH',
  'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
  'SLUICE_TENSOR_INVALID_VALUE',
  'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
  'SLUICE_WORKFLOW_INPUT_INVALID',
]);

/** Whether `source` is what the client sent: a request input, or a `forEach` element of what it sent. */
function fromClient(source: ValueSource, itemFromClient: boolean): boolean {
  return source.kind === 'request' || (source.kind === 'item' && itemFromClient);
}

/**
 * Whether `node` is called with the client's data and nothing other nodes made (the workflow's literals,
 * checked against the target when the workflow is registered, may be there too), so that a call refusing
 * its data refuses the client's, for the client to fix.
 */
function calledWithClientData(node: WorkflowNode): boolean {
  const itemFromClient = node.forEach?.alternatives.every((source) => fromClient(source, false)) ?? false;
  const given = Object.values(node.inputs).flatMap((binding) => binding.alternatives);
  return given.some((source) => fromClient(source, itemFromClient)) && given.every((source) => source.kind === 'literal' || fromClient(source, itemFromClient));
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error a failed node fails its workflow with, naming the workflow, the node and the cause: a
 * timeout of the last attempt is `SLUICE_WORKFLOW_NODE_TIMEOUT`; an error a client can act on
 * (unavailable, exhausted, deadline, or a refusal of data the node took straight from the request) keeps
 * its code; anything else is `SLUICE_WORKFLOW_NODE_FAILED`.
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
  if (isSluiceError(cause) && (PASSED_THROUGH.has(cause.category) || (DATA_REFUSALS.has(cause.code) && calledWithClientData(node)))) {
    return new SluiceError(cause.code, `${name}${tries}: ${cause.message}`, { ...cause.details, ...details }, { cause });
  }
  const causeCode = isSluiceError(cause) ? { causeCode: cause.code } : {};
  return new SluiceError('SLUICE_WORKFLOW_NODE_FAILED', `${name} failed${tries}: ${reasonOf(cause)}`, { ...details, ...causeCode }, { cause });
}
