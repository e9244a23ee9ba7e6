import type { HandlerRequest } from './handler.js';
import type { ModelDescription } from './model-description.js';

/** A request body as it reached the server. */
export interface EnvelopeRequest {
  /** The raw body. */
  readonly body: Uint8Array;
  /** The media type without parameters (`application/json`, `image/png`, …). */
  readonly contentType: string;
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

/**
 * A request/response format: it splits one HTTP body into the requests the model's handler sees (one
 * per instance, so instances of one body batch together) and joins the handler's answers into one body.
 * Chosen per model (`envelope:` in model.yaml) or per request (`?envelope=` or `x-sluice-envelope`).
 * `decode` throws `SLUICE_ENVELOPE_INVALID_BODY` for a body of the wrong shape.
 */
export interface Envelope {
  readonly name: string;
  decode(request: EnvelopeRequest, context: EnvelopeContext): readonly HandlerRequest[];
  /** Called with one answer per decoded request, in order. */
  encode(responses: readonly unknown[], context: EnvelopeContext): EnvelopeResponse;
}
