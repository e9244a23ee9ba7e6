import type { HandlerRequest } from '../handler/handler.js';
import type { ModelDescription } from '../model/model-description.js';

/** A request body as it reached the server. */
export interface EnvelopeRequest {
  /** The raw body. */
  readonly body: Uint8Array;
  /** The media type without parameters (`application/json`, `image/png`, …). */
  readonly contentType: string;
  /**
   * The `charset` parameter of the `Content-Type`, lower-cased, when the request named one. An envelope
   * that reads the body as text refuses one that is not UTF-8 (`refuseNonUtf8Charset`).
   */
  readonly charset?: string;
}

/** A response body an envelope made. */
export interface EnvelopeResponse {
  /** JSON-serialisable data, or bytes sent as they are. */
  readonly body: unknown;
  /** The media type; `application/json` when omitted. */
  readonly contentType?: string;
}

/** What an envelope is told about the call. */
export interface EnvelopeContext {
  readonly model: ModelDescription;
}

/** The handler requests of one body, one per entry of a list the body holds, and what the body calls that list. */
export interface EnvelopeEntries {
  /**
   * The list's key in the body (`instances`): the error of a failing entry is answered with its own code,
   * its message starting with the entry's place (`instances[2]: …`).
   */
  readonly listName: string;
  /** One request per entry of the list, in order. */
  readonly requests: readonly HandlerRequest[];
}

/**
 * A request/response format: it splits one HTTP body into the requests the model's handler sees (one
 * per instance, so instances of one body batch together) and joins the handler's answers into one body.
 * Chosen per model (`envelope:` in model.yaml) or per request (`?envelope=` or `x-sluice-envelope`).
 * `decode` throws `SLUICE_ENVELOPE_INVALID_BODY` for a body of the wrong shape. An envelope whose
 * requests are the entries of a list in the body (KServe `instances`) also implements `decodeEntries`,
 * so that a failing entry is named by its place in that list; a request marked `instance` is one entry
 * of a KServe `instances` list, which handlers of JSON tensors read with `decodeJsonInstance`.
 */
export interface Envelope {
  readonly name: string;
  decode(request: EnvelopeRequest, context: EnvelopeContext): readonly HandlerRequest[];
  /**
   * Optional: {@link decode}'s requests together with the name of the list they came from. When present,
   * Sluice calls it instead of `decode`, and one failing request fails the whole body with its own error,
   * the message starting with its place (`instances[2]: …`); without it, the error is the request's own.
   */
  decodeEntries?(request: EnvelopeRequest, context: EnvelopeContext): EnvelopeEntries;
  /** Called with one answer per decoded request, in order. */
  encode(responses: readonly unknown[], context: EnvelopeContext): EnvelopeResponse;
}
