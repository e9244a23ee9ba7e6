import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import type { WorkflowDefinition } from '../../../workflow/index.js';
import { headerKnobs } from '../common/request-knobs.js';
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
 * Run options from the request: `?debug=true`, the `x-sluice-timeout-ms` and `x-sluice-priority` headers, an abort signal that
 * fires when the client goes away before its answer was written, and the request's trace context.
 */
export function workflowRunOptions(request: FastifyRequest, reply: FastifyReply): WorkflowRunOptions {
  const query = request.query as Record<string, string | string[] | undefined>;
  const debug = debugFlag(query['debug']);
  const { timeoutMs, priority } = headerKnobs(request.headers);
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const traceContext = requestTraceContext(request);
  return {
    debug,
    signal: controller.signal,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(priority !== undefined ? { priority } : {}),
    ...(traceContext !== undefined ? { traceContext } : {}),
  };
}
