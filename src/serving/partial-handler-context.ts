import type { Tracer } from '@opentelemetry/api';
import { SluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { PartialSink } from '../partials/partial-sink.js';
import type { Cancellation } from '../budget/request-budget.js';
import type { HandlerContext } from '../sdk/handler/handler.js';

/** What `sendPartial` rejects with once the client of a streamed answer has gone. */
export function clientGone(): SluiceError {
  return new SluiceError('SLUICE_CLIENT_GONE', 'the client has gone away; stop producing answers for this request');
}

/**
 * The handler context of one request: the version's context, with a signal that aborts when the version
 * is unloaded or the request's client leaves (its cancellation: an HTTP connection closed, a gRPC call
 * cancelled, the workflow run that called ended), whether or not the answer has started streaming, and,
 * where the transport streams, `sendPartial` handing answers to the request's sink. The signal is made
 * when the handler first reads it, so a handler that never looks costs no listener; only the model run a
 * request may share with others is left alone by its client's leaving (the scheduler drops a request
 * still queued instead).
 */
export class PartialHandlerContext implements HandlerContext {
  private either: AbortSignal | undefined;

  constructor(
    private readonly base: HandlerContext,
    private readonly cancellation: Cancellation,
    private readonly sink?: PartialSink,
  ) {}

  /** Made on first use: a handler that never looks at it costs no listener. */
  get signal(): AbortSignal {
    if (this.either === undefined) {
      const client = this.cancellation.watch();
      this.either = AbortSignal.any(this.sink === undefined ? [this.base.signal, client] : [this.base.signal, client, this.sink.signal]);
    }
    return this.either;
  }

  get model(): HandlerContext['model'] {
    return this.base.model;
  }

  get logger(): Logger {
    return this.base.logger;
  }

  get tracer(): Tracer {
    return this.base.tracer;
  }

  get config(): HandlerContext['config'] {
    return this.base.config;
  }

  sendPartial(answer: unknown): Promise<void> {
    if (this.sink === undefined) return this.base.sendPartial(answer);
    // A look at the client first: one that left before the first part has nothing to stream to.
    if (this.sink.signal.aborted || this.cancellation.isCancelled()) return Promise.reject(clientGone());
    return this.sink.send(answer);
  }
}
