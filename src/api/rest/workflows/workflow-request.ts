import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import type { WorkflowDefinition } from '../../../workflow/index.js';
import { TIMEOUT_HEADER } from '../common/request-knobs.js';
import { requestTraceContext } from '../common/request-observer.js';
import { handlerRequestOf } from '../inference/handler-request.js';
import { workflowInputsFromBody } from '../../common/workflow-body.js';
import type { WorkflowRunOptions } from '../../../serving/workflows/workflow-service.js';

/** The request inputs of a `/wfpredict` body (see {@link workflowInputsFromBody}). */
export function workflowInputsOf(request: FastifyRequest, workflow: WorkflowDefinition): Record<string, unknown> {
  return workflowInputsFromBody(handlerRequestOf(request).body, workflow);
}

/** `?debug=`: absent or `false` is off, `true` on; anything else is refused rather than read as off. */
function debugFlag(value: string | string[] | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the debug query parameter must be true or false (once), got ${JSON.stringify(value)}`);
}

/**
 * Run options from the request: `?debug=true`, the `x-sluice-timeout-ms` header, an abort signal that
 * fires when the client goes away before its answer was written, and the request's trace context.
 */
export function workflowRunOptions(request: FastifyRequest, reply: FastifyReply): WorkflowRunOptions {
  const query = request.query as Record<string, string | string[] | undefined>;
  const debug = debugFlag(query['debug']);
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
  const traceContext = requestTraceContext(request);
  return { debug, signal: controller.signal, ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(traceContext !== undefined ? { traceContext } : {}) };
}
