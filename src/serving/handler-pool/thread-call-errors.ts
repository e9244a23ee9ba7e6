import { RETRY_AFTER_SECONDS, SluiceError } from '../../sdk/errors/index.js';
import type { Handler, HandlerContext } from '../../sdk/handler/handler.js';
import type { HandlerStage } from './handler-task.js';

/** How long a call on a thread may go on once its version is unloaded before its thread is stopped. */
export const UNLOAD_GRACE_MS = 1_000;

/** Why a call was taken off its thread, or out of the wait for one. */
export type ThreadCallStop = 'deadline' | 'own-timeout' | 'client-gone' | 'unloaded';

function label(context: HandlerContext): string {
  return `model \`${context.model.name}\` version \`${context.model.version}\``;
}

/**
 * The answer to a call stopped for `reason`. `ran` tells whether a thread had started it: a call
 * still waiting for a thread was not run, and no thread was stopped for it.
 */
export function stoppedCall(reason: ThreadCallStop, ran: boolean, handler: Handler, stage: HandlerStage, context: HandlerContext, started: number): SluiceError {
  const waitedMs = Math.round(performance.now() - started);
  const details = { stage };
  switch (reason) {
    case 'deadline':
      return new SluiceError(
        'SLUICE_RESPONSE_TIMEOUT',
        ran
          ? `${label(context)} did not answer in time: its response timeout passed while handler \`${handler.name}\` ran ${stage} on a handler thread (${waitedMs} ms), and the thread was stopped; raise the timeout or make the handler finish sooner`
          : `${label(context)} did not answer in time: its response timeout passed while its ${stage} waited for a handler thread (${waitedMs} ms), held by the model's earlier calls; it was not run; raise the timeout or send fewer long requests at once`,
        details,
      );
    case 'own-timeout':
      return new SluiceError(
        'SLUICE_RESPONSE_TIMEOUT',
        `${label(context)} did not answer in time: its own timeout (x-sluice-timeout-ms) passed while its ${stage} waited for a handler thread (${waitedMs} ms); it was not run; raise the timeout or retry later`,
        details,
      );
    case 'client-gone':
      return new SluiceError('SLUICE_REQUEST_INVALID', `the client went away while the request's ${stage} waited for a handler thread; it was not run`, details);
    case 'unloaded':
      return ran
        ? new SluiceError(
            'SLUICE_MODEL_UNLOADING',
            `${label(context)} was unloaded while handler \`${handler.name}\` ran ${stage} on a handler thread, which had not returned ${UNLOAD_GRACE_MS} ms later, so the thread was stopped; a handler that watches its context's signal can return sooner`,
            details,
          )
        : new SluiceError('SLUICE_MODEL_UNLOADING', `${label(context)} is being unloaded; the request's ${stage} had not started on a handler thread and was not run`, details);
  }
}

/** The refusal of a preprocess call when `limit` calls of its version already wait for a handler thread. */
export function waitFull(context: HandlerContext, limit: number): SluiceError {
  return new SluiceError(
    'SLUICE_QUEUE_FULL',
    `${label(context)} already has ${limit} requests waiting for a handler thread (its jobQueueSize); retry after ${RETRY_AFTER_SECONDS} s or raise jobQueueSize`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS, queueSize: limit },
  );
}
