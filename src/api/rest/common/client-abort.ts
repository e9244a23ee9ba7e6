import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client disconnects before its answer was written, so queued work for it
 * can be dropped.
 */
export function clientAbortSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
