/** What the serving core reports about one finished inference request. */
export interface InferenceObservation {
  readonly model: string;
  readonly version: string;
  /** True when the request produced a result. */
  readonly ok: boolean;
  /** From the request reaching the model to its answer, in microseconds. */
  readonly latencyUs: number;
  /** Time spent waiting in the model's queue, in microseconds. */
  readonly queueUs: number;
}

/**
 * The single metrics source of the process. The serving core only talks to this interface, so the
 * implementation behind it (our Prometheus registry today) can be swapped without touching callers.
 */
export interface ServingMetrics {
  /** Records one finished inference request. */
  inferenceCompleted(observation: InferenceObservation): void;
  /** The `/metrics` page and its content type. */
  scrape(): { contentType: string; body: string };
}
