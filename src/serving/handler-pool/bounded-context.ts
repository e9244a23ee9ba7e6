import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '../../common/logger.js';
import type { HandlerContext } from '../../plugins/sdk/handler.js';

/** What bounds one request's call on a handler thread, besides its response timeout. */
export interface ThreadCallBounds {
  /**
   * The request's own timeout (`x-sluice-timeout-ms`), when its version refuses requests whose own
   * timeout passes while they are queued (`queuePolicy: reject`), on the `performance.now()` clock:
   * waiting for a handler thread is queueing.
   */
  readonly queueDeadline?: number;
  /** True once the request's client has gone away: a call that has not taken a thread yet leaves. */
  readonly isCancelled?: () => boolean;
  /** Aborts when the client goes away (gRPC): a call still waiting for a thread leaves at once. */
  readonly clientSignal?: AbortSignal;
  /** How many calls of the version may wait for a thread at once (its `jobQueueSize`). */
  readonly waitLimit?: number;
}

/**
 * A handler context with the time its call must end by (`performance.now()` clock): the request's
 * response timeout, and the other bounds of its wait for a thread. The handler pool stops a call on a
 * worker thread that runs past its deadline, since a thread cannot be interrupted otherwise; the handler
 * itself sees an ordinary context.
 */
export class BoundedHandlerContext implements HandlerContext {
  constructor(
    private readonly base: HandlerContext,
    /** When the call must end, on the `performance.now()` clock. */
    readonly deadline: number,
    /** What else bounds the call's wait for a thread. */
    readonly bounds: ThreadCallBounds = {},
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

/** What else bounds `context`'s wait for a thread (nothing for an ordinary context). */
export function boundsOf(context: HandlerContext): ThreadCallBounds {
  return context instanceof BoundedHandlerContext ? context.bounds : {};
}
