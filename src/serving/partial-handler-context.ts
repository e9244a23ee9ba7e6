import type { Tracer } from '@opentelemetry/api';
import { SluiceError } from '../sdk/errors/index.js';
import type { Logger } from '../sdk/logging/logger.js';
import type { PartialSink } from '../partials/partial-sink.js';
import type { HandlerContext } from '../sdk/handler/handler.js';

/** What `sendPartial` rejects with once the client of a streamed answer has gone. */
export function clientGone(): SluiceError {
  return new SluiceError('SLUICE_CLIENT_GONE', 'the client has gone away; stop producing answers for this request');
}

/**
 * The handler context of a request whose transport streams: the version's context, with `sendPartial`
 * handing answers to the request's sink, and a signal that aborts when the version is unloaded or the
 * client leaves. Made only for such requests; every other one shares the version's context.
 */
export class PartialHandlerContext implements HandlerContext {
  private either: AbortSignal | undefined;

  constructor(
    private readonly base: HandlerContext,
    private readonly sink: PartialSink,
  ) {}

  /** Made on first use: a handler that never looks at it costs no listener. */
  get signal(): AbortSignal {
    return (this.either ??= AbortSignal.any([this.base.signal, this.sink.signal]));
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
    if (this.sink.signal.aborted) return Promise.reject(clientGone());
    return this.sink.send(answer);
  }
}
