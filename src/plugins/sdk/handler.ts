import type { Logger } from '../../common/logger.js';
import type { Tensor } from '../../common/tensor/index.js';
import type { ModelDescription } from './model-description.js';

/** One client request as a handler sees it. */
export interface HandlerRequest {
  /** The parsed JSON body, or the raw bytes when the body is not JSON. */
  readonly body: unknown;
  /** The request's media type without parameters (`application/json`, `image/png`, …). */
  readonly contentType: string;
}

/** The narrow world a handler works in: never the server's internals. */
export interface HandlerContext {
  readonly model: ModelDescription;
  readonly logger: Logger;
  /** Aborted when every request of the call has gone away. */
  readonly signal: AbortSignal;
  /** The handler's own settings from the model manifest. */
  readonly config: Readonly<Record<string, unknown>>;
}

/** What preprocessing made of one request. */
export interface PreparedRequest<State = unknown> {
  /** The model inputs for this request. */
  readonly inputs: readonly Tensor[];
  /** Outputs to compute (all when omitted). */
  readonly outputNames?: readonly string[];
  /** Anything postprocessing needs to remember about the request (e.g. "the client sent one instance"). */
  readonly state?: State;
}

/** One request's model outputs on their way to postprocessing. */
export interface HandlerResult<State = unknown> {
  readonly request: HandlerRequest;
  readonly outputs: readonly Tensor[];
  readonly state: State | undefined;
}

/**
 * Pre- and post-processing around a model, TorchServe-style: lists in, lists out, one entry per request
 * in order. If a call throws, every request of that call fails with the error, so Sluice preprocesses each
 * request on its own before batching and one bad request never fails its batch-mates.
 */
export interface Handler<State = unknown> {
  /** The name manifests refer to (`handler: classifier`). */
  readonly name: string;
  /** Turns requests into model inputs. */
  preprocess(requests: readonly HandlerRequest[], context: HandlerContext): Promise<readonly PreparedRequest<State>[]>;
  /** Turns model outputs into JSON-serialisable responses. */
  postprocess(results: readonly HandlerResult<State>[], context: HandlerContext): Promise<readonly unknown[]>;
}
