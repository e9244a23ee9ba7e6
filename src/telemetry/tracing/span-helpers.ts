import { SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { isSluiceError } from '../../sdk/errors/index.js';
import { ATTR } from '../telemetry-names.js';
import { recordingSpanOf, tracerOf } from './trace-context.js';

/** Marks `span` failed: status ERROR with the message, the exception recorded, and the Sluice error code. */
export function recordFailure(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
  if (isSluiceError(error)) span.setAttributes({ [ATTR.errorCode]: error.code, [ATTR.errorType]: error.code });
  else span.setAttribute(ATTR.errorType, failure.name);
}

/** A promise rejected with `error`, whatever was thrown. */
// eslint-disable-next-line @typescript-eslint/require-await -- an async function turns the throw into the rejection
async function rejectedWith(error: unknown): Promise<never> {
  throw error;
}

/** Ends `span` failed with `error` ({@link recordFailure}). */
export function endFailed(span: Span, error: unknown): void {
  recordFailure(span, error);
  span.end();
}

/**
 * Runs `fn` inside a child span `name` of the span in `parent` and ends it when `fn` settles; an error
 * marks the span failed ({@link recordFailure}) and rejects the result. `fn` gets the child's trace
 * context, to parent what it starts in turn. Without a sampled parent (tracing off, not sampled) it only
 * calls `fn`, with no context. For auth checks (`SPAN.auth`), envelope decoding (`SPAN.envelopeDecode`),
 * handler stages and anything else that belongs to one request. Always answers with a promise, even
 * when `fn` throws at once.
 */
export function withChildSpan<T>(
  parent: Context | undefined,
  name: string,
  attributes: Attributes,
  fn: (child: Context | undefined) => Promise<T> | T,
): Promise<T> {
  const span = startChildSpan(parent, name, attributes);
  if (parent === undefined || span === undefined) {
    try {
      return Promise.resolve(fn(undefined));
    } catch (error) {
      return rejectedWith(error);
    }
  }
  // Not an async function: a traced request runs several stages, and an async frame and its promises
  // per stage cost more than these two callbacks.
  let result: Promise<T> | T;
  try {
    result = fn(trace.setSpan(parent, span));
  } catch (error) {
    endFailed(span, error);
    return rejectedWith(error);
  }
  return Promise.resolve(result).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      endFailed(span, error);
      throw error;
    },
  );
}

/**
 * Starts a child span `name` of the span in `parent`, for a stage its caller awaits anyway: end it with
 * `span.end()`, or {@link endFailed} when the stage fails. Lighter than {@link withChildSpan}, which
 * chains a promise of its own onto the stage; a prediction runs two such stages. Undefined without a
 * sampled parent (tracing off, not sampled).
 */
export function startChildSpan(parent: Context | undefined, name: string, attributes?: Attributes): Span | undefined {
  const tracer = tracerOf(parent);
  if (parent === undefined || tracer === undefined || recordingSpanOf(parent) === undefined) return undefined;
  return tracer.startSpan(name, attributes === undefined ? undefined : { attributes }, parent);
}

/** Names the model version a request runs on, on the span of `to` when it records. */
export function annotateModel(to: Context | undefined, model: string, version: string): void {
  recordingSpanOf(to)?.setAttribute(ATTR.model, model).setAttribute(ATTR.modelVersion, version);
}
