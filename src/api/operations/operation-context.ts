import type { Context } from '@opentelemetry/api';
import type { PartialSink } from '../../partials/partial-sink.js';
import type { RequestBudget } from '../../budget/request-budget.js';

/**
 * What the edge of a transport knows of one request besides its body: what it may spend, and how hooks,
 * logs and traces name it. Made once by the REST controller, the inference lane or the gRPC controller,
 * and read the same way by every operation.
 */
export interface OperationContext {
  /**
   * The request's budget: the client's deadline, its own timeout, its cancellation and priority. An edge
   * may make it when it is first read, so that a bad knob is refused at the same step on every transport;
   * an operation reads it once it has resolved what the request names.
   */
  readonly budget: RequestBudget;
  /** The API it came through, for hooks: `v2`, `predictions`, `v1`, `grpc`. */
  readonly api: string;
  /** The request's id, for hooks and logs (HTTP gives one; a gRPC call has none). */
  readonly requestId?: string | undefined;
  /** The request's trace context (its server span), when the port traces. */
  readonly traceContext?: Context | undefined;
  /**
   * Let the requests that arrive in one turn of the event loop share a batch even when an instance is
   * idle: an HTTP/2 connection delivers many gRPC calls in one read, and the calls of one read then
   * share a batch, instead of the first ones each running alone while the rest wait for them.
   */
  readonly gather?: boolean;
  /**
   * Where intermediate answers go when the transport streams them: a handler's `sendPartial`, a
   * workflow's progress. Absent where the transport answers once.
   */
  readonly partials?: PartialSink | undefined;
}
