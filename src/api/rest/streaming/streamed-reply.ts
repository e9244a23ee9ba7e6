import type { FastifyReply, FastifyRequest } from 'fastify';
import { STREAM_STARTED, type HttpPartialStream } from './http-partial-stream.js';
import { noteStreamFailure } from '../observation/request-observer.js';

/**
 * The reply to a request whose work (`work`) may stream intermediate parts to `partials`. When the work
 * ends before its first part and the client did not ask for Server-Sent Events, the answer is the
 * ordinary one (`plain`), and a failure before the first part is the ordinary error answer. Otherwise
 * the reply is the stream: the parts as they come, then the final answer (`last`), or the failure as the
 * stream ends it ({@link HttpPartialStream.fail}), recorded for the request's access-log line and metrics
 * ({@link noteStreamFailure}) although its status 200 has gone out.
 */
export async function streamedReply<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  partials: HttpPartialStream,
  work: Promise<T>,
  plain: (answer: T) => unknown,
  last: (answer: T) => unknown,
): Promise<unknown> {
  const done = await partials.answerOrStart(work);
  if (done !== STREAM_STARTED && partials.format === 'chunked') return plain(done);
  work.then(
    (answer) => {
      partials.finish(last(answer));
    },
    (error: unknown) => {
      const failure = partials.fail(error, request.url);
      noteStreamFailure(request, failure.error, failure.status);
    },
  );
  void reply.header('content-type', partials.contentType);
  if (partials.format === 'sse') void reply.header('cache-control', 'no-cache');
  return partials.stream;
}
