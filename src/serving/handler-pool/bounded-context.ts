import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '../../common/logger.js';
import type { HandlerContext } from '../../plugins/sdk/handler.js';

/**
 * A handler context with the time its call must end by (`performance.now()` clock): the request's
 * response timeout. The handler pool stops a call on a worker thread that runs past it, since a thread
 * cannot be interrupted otherwise; the handler itself sees an ordinary context.
 */
export class BoundedHandlerContext implements HandlerContext {
  constructor(
    private readonly base: HandlerContext,
    /** When the call must end, on the `performance.now()` clock. */
    readonly deadline: number,
  ) {}

  get model(): HandlerContext['model'] {
    return this.base.model;
  }

  get logger(): Logger {
    return this.base.logger;
  }

  get tracer(): Tracer {
    return this.base.tracer;
  }

  get signal(): AbortSignal {
    return this.base.signal;
  }

  get config(): HandlerContext['config'] {
    return this.base.config;
  }
}

/** The time `context`'s call must end by, when it has one. */
export function deadlineOf(context: HandlerContext): number | undefined {
  return context instanceof BoundedHandlerContext ? context.deadline : undefined;
}
