/**
 * Where one request's intermediate answers go, on a transport that streams them (HTTP chunks or
 * Server-Sent Events, gRPC streams): made at the edge, handed through the operation and the inference
 * service to the handler's context (`HandlerContext.sendPartial`) and to a workflow run's progress.
 */
export interface PartialSink {
  /**
   * Takes one intermediate answer. Resolves once the transport can take the next (the client reads
   * slower than the work produces: the producer waits); rejects once the client has gone.
   */
  send(answer: unknown): Promise<void>;
  /** Aborts when the client goes away before the answer: the work should stop. */
  readonly signal: AbortSignal;
}
