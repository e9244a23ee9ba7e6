import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '../../sdk/logging/logger.js';
import type { RequestBudget } from '../../budget/request-budget.js';
import type { HandlerContext } from '../../sdk/handler/handler.js';

/** What bounds one request's wait for a handler thread besides its budget: its version's queue settings. */
export interface ThreadCallBounds {
  /**
   * Whether the request's own timeout (its budget's `timeoutAt`) ends its wait for a thread, as it ends
   * its wait in the queue of a version with `queuePolicy: reject`: waiting for a handler thread is
   * queueing.
   */
  readonly ownTimeoutEndsWait?: boolean;
  /** How many calls of the version may wait for a thread at once (its `jobQueueSize`). */
  readonly waitLimit?: number;
}

/**
 * A handler context with the budget its call must keep to: the request's, narrowed by its version's
 * response timeout (`performance.now()` clock), and the other bounds of its wait for a thread. The handler
 * pool stops a call on a worker thread that runs past the budget's hard deadline, since a thread cannot
 * be interrupted otherwise, and lets a call still waiting for a thread go when its client leaves; the
 * handler itself sees an ordinary context.
 */
export class BoundedHandlerContext implements HandlerContext {
  constructor(
    private readonly base: HandlerContext,
    /** What the call may spend: its hard deadline, its own timeout, its client's cancellation. */
    readonly budget: RequestBudget,
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

  sendPartial(answer: unknown): Promise<void> {
    return this.base.sendPartial(answer);
  }
}

/** The budget `context`'s call must keep to, when it has one. */
export function budgetOf(context: HandlerContext): RequestBudget | undefined {
  return context instanceof BoundedHandlerContext ? context.budget : undefined;
}

/** What else bounds `context`'s wait for a thread (nothing for an ordinary context). */
export function boundsOf(context: HandlerContext): ThreadCallBounds {
  return context instanceof BoundedHandlerContext ? context.bounds : {};
}
