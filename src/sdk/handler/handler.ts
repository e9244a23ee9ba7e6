import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '../logging/logger.js';
import type { Tensor } from '../tensor/index.js';
import type { ModelDescription } from '../model/model-description.js';

/** One client request as a handler sees it. */
export interface HandlerRequest {
  /** The parsed JSON body, or the raw bytes when the body is not JSON. */
  readonly body: unknown;
  /** The request's media type without parameters (`application/json`, `image/png`, …). */
  readonly contentType: string;
  /**
   * True when the body is one entry of a KServe v1 `instances` list (`POST /v1/models/{m}:predict` and
   * the `kserve` and `json` envelopes hand each entry to the handler as a request of its own). A handler
   * of JSON tensors reads such a body as one row of a single-input model's data, or as an object with one
   * entry per input (`decodeJsonInstance`); a handler of images or texts reads it as any other body.
   */
  readonly instance?: boolean;
  /**
   * The other fields of a `multipart/form-data` body whose `data` (or `body`) part this request is, by
   * name: text fields as text, file parts as bytes (TorchServe hands a form's fields to the handler with
   * each request). Absent for any other body.
   */
  readonly parameters?: Readonly<Record<string, string | Uint8Array>>;
  /** The file name the client gave the form part this request is (`kitten.jpg` of `-F data=@kitten.jpg`). */
  readonly filename?: string;
}

/** The narrow world a handler works in: never the server's internals. */
export interface HandlerContext {
  readonly model: ModelDescription;
  readonly logger: Logger;
  /**
   * Spans a handler starts join the trace of the request it works for, under its `preprocess` or
   * `postprocess` span (`tracer.startActiveSpan('resize', …)`); they cost nothing when the request is not
   * traced. Sluice passes trace context explicitly and installs no context manager, so a span is not the
   * parent of spans started inside it: to nest spans, pass the outer one as the parent
   * (`tracer.startSpan('inner', {}, trace.setSpan(ROOT_CONTEXT, outer))`).
   */
  readonly tracer: Tracer;
  /**
   * Aborted when the model version is unloaded (its queued requests are refused then) or when the
   * request's client leaves while the handler works: an HTTP client closing its connection, a gRPC call
   * cancelled, the workflow run that made the call ending. Streamed or not, before the first
   * {@link sendPartial} or after: long work may stop early. The model run a request may share with others
   * in a batch is not aborted for one client (a request still queued is dropped instead).
   */
  readonly signal: AbortSignal;
  /** The handler's own settings from the model manifest. */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * Sends an intermediate answer to the client before the final one (what `postprocess` returns), as
   * TorchServe's `send_intermediate_predict_response` does: over HTTP a chunk of a chunked answer (an
   * event with `Accept: text/event-stream`), over gRPC a message of `StreamPredictions`,
   * `StreamPredictions2` or `ModelStreamInfer`. The answer is encoded as the final one is (JSON, text or
   * bytes). Await it before producing the next: it resolves once the transport can take more, so a slow
   * client slows the handler instead of filling memory. It rejects with `SLUICE_CLIENT_GONE` once the
   * client has gone, and `signal` then aborts: stop producing. Where the request cannot stream (KServe
   * v1, OIP, a unary gRPC call, one of several parts of a form) it sends nothing and resolves at once.
   * On a worker thread the answer crosses to the main thread by structured clone.
   */
  sendPartial(answer: unknown): Promise<void>;
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
 *
 * A handler runs on the event loop unless it declares {@link Handler.cpuHeavy}: then Sluice runs its
 * `preprocess` and `postprocess` on a pool of worker threads, so a slow image decode or tokenisation does
 * not hold up every other request of the server.
 *
 * A stage whose promise has not settled when the request's response timeout passes fails the request
 * with `SLUICE_RESPONSE_TIMEOUT`. On the event loop Sluice cannot stop the stage: what it returns or
 * throws afterwards is dropped (never queued, never answered).
 */
export interface Handler<State = unknown> {
  /** The name manifests refer to (`handler: classifier`). */
  readonly name: string;
  /**
   * Marks the handler as CPU-heavy and says where a worker thread imports it from, since functions cannot
   * be sent to a thread: `module` is the URL of the module exporting the handler (`import.meta.url` in that
   * module) and `exportName` the export (default `default`); the export must be a handler of the same name.
   * Each thread imports the module once, so module-level state is per thread.
   *
   * The rules on a worker thread:
   * - Requests, results, `state` and responses cross threads by structured clone: plain data, typed
   *   arrays, `Map`, `Date`, … but no functions, and class instances arrive as plain objects (a raw body
   *   `Buffer` as a `Uint8Array`). An answer that cannot be cloned fails the request with
   *   `SLUICE_HANDLER_FAILED`; a JSON body nested more than 256 levels deep, too deep to clone, is refused
   *   with `SLUICE_REQUEST_INVALID` before it reaches the handler.
   * - Typed arrays in the inputs `preprocess` returns are moved to the main thread, not copied, when they
   *   span their whole buffer: do not keep them (in a cache, say) after returning them.
   * - The context is a reduced one: `model` and `config` are copies, `logger` forwards each line to the
   *   server's log, and `signal` is only a flag, set when the main thread's signal aborts and seen between
   *   awaits (a synchronous loop runs to its end).
   * - Errors come back as on the main thread: a `SluiceError` keeps its code, message and details; anything
   *   else becomes `SLUICE_HANDLER_FAILED` naming the handler and the stage.
   * - A stage still running (or waiting for a thread) when the request's response timeout passes fails the
   *   request with `SLUICE_RESPONSE_TIMEOUT`, and its thread is stopped and replaced: module state of that
   *   thread is lost.
   */
  readonly cpuHeavy?: { readonly module: string; readonly exportName?: string };
  /** Turns requests into model inputs. */
  preprocess(requests: readonly HandlerRequest[], context: HandlerContext): Promise<readonly PreparedRequest<State>[]>;
  /** Turns model outputs into JSON-serialisable responses. */
  postprocess(results: readonly HandlerResult<State>[], context: HandlerContext): Promise<readonly unknown[]>;
}
