import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import type { WorkflowDefinition } from '../../../workflow/index.js';
import { TIMEOUT_HEADER } from '../common/request-knobs.js';
import { handlerRequestOf } from '../inference/handler-request.js';
import type { WorkflowRunOptions } from '../../../serving/workflows/workflow-service.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * The request inputs of a `/wfpredict` body: a JSON object whose keys are the workflow's inputs; or, when
 * the workflow has a single input, the whole body as that input (JSON data, or raw bytes such as an image);
 * for a workflow without inputs, an empty object or no body. The inputs are checked when the run starts,
 * which names every input missing or unknown.
 */
export function workflowInputsOf(request: FastifyRequest, workflow: WorkflowDefinition): Record<string, unknown> {
  const { body } = handlerRequestOf(request);
  const names = Object.keys(workflow.inputs);
  const [only, ...more] = names;
  if (only !== undefined && more.length === 0) {
    return isRecord(body) && Object.keys(body).length === 1 && only in body ? body : { [only]: body };
  }
  if (isRecord(body)) return body;
  if (only === undefined && body instanceof Uint8Array && body.byteLength === 0) return {};
  throw new SluiceError(
    'SLUICE_WORKFLOW_INPUT_INVALID',
    only === undefined
      ? `workflow \`${workflow.name}\` takes no inputs; send an empty JSON object or no body`
      : `workflow \`${workflow.name}\` takes the inputs ${names.join(', ')}; send a JSON object with one entry per input`,
  );
}

/**
 * Run options from the request: `?debug=true`, the `x-sluice-timeout-ms` header, and an abort signal that
 * fires when the client goes away before its answer was written.
 */
export function workflowRunOptions(request: FastifyRequest, reply: FastifyReply): WorkflowRunOptions {
  const query = request.query as Record<string, string | undefined>;
  const debug = query['debug'] === 'true';
  const timeoutHeader = request.headers[TIMEOUT_HEADER];
  let timeoutMs: number | undefined;
  if (typeof timeoutHeader === 'string') {
    if (!/^\d+$/.test(timeoutHeader) || Number(timeoutHeader) < 1) {
      throw new SluiceError('SLUICE_REQUEST_INVALID', `the ${TIMEOUT_HEADER} header must be an integer of at least 1, got ${JSON.stringify(timeoutHeader)}`);
    }
    timeoutMs = Number(timeoutHeader);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return { debug, signal: controller.signal, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}
