/** What the serving core reports about one finished inference request. */
export interface InferenceObservation {
  readonly model: string;
  readonly version: string;
  /** True when the request produced a result. */
  readonly ok: boolean;
  /**
   * From the request reaching the model to its answer, in microseconds: for a request through the
   * model's handler, from its preprocess to the end of its postprocess.
   */
  readonly latencyUs: number;
  /** Time spent waiting in the model's queue, in microseconds; absent when the request never left the queue to run. */
  readonly queueUs?: number;
}

/** What the scheduler reports about one batch. */
export interface BatchObservation {
  readonly model: string;
  readonly version: string;
  /** Requests in the batch. */
  readonly size: number;
  /** Time the run took, in microseconds. */
  readonly computeUs: number;
}

/** What the workflow executor reports about one node. */
export interface WorkflowNodeObservation {
  readonly workflow: string;
  readonly node: string;
  /** `ok`, `fallback`, `skipped`, `failed` or `cancelled`. */
  readonly status: string;
  /** From the node's start (or its skip) to its end, in microseconds. */
  readonly latencyUs: number;
}

/** The utilisation of one instance, read at scrape time. */
export interface InstanceUtilization {
  readonly model: string;
  readonly version: string;
  readonly instance: string;
  /** Busy fraction over the last look (0..1). */
  readonly utilization: number;
  /** Where it runs (`cpu`, `cuda:0`, `webgpu`); undefined while it starts. */
  readonly device?: string;
  /** Milliseconds from its start to its first readiness; undefined while it starts. */
  readonly loadMs?: number;
}

/** How loaded one model version is now, read at scrape time. */
export interface VersionLoad {
  readonly model: string;
  readonly version: string;
  /** Requests waiting in the version's queue for an instance. */
  readonly queued: number;
  /** Requests the version has taken and not yet answered: in its handler, queued or running. */
  readonly inFlight: number;
}

/**
 * The single metrics source of the process. The serving core and the transports only talk to this
 * interface; the implementation records through the OpenTelemetry metrics API.
 */
export interface ServingMetrics {
  /** A model version was registered: its series start (from zero) and take its requests and batches. */
  versionAdded(model: string, version: string): void;
  /**
   * A model version was unregistered: its series leave the page, and what its requests and batches
   * report from now on is not counted (they ended with it).
   */
  versionRemoved(model: string, version: string): void;
  /** Records one finished inference request of a registered version (others are not counted). */
  inferenceCompleted(observation: InferenceObservation): void;
  /** Records one batch run of a registered version (others are not counted). */
  batchCompleted(observation: BatchObservation): void;
  /** Records one finished workflow node. */
  workflowNodeCompleted(observation: WorkflowNodeObservation): void;
  /** Counts one error answer by its Sluice error code and the transport that sent it (`http`, `grpc`). */
  errorAnswered(code: string, transport: string): void;
  /** Counts one HTTP answer by its status (TorchServe's `Requests2XX`, `Requests4XX`, `Requests5XX`). */
  httpAnswered(status: number): void;
  /** Tells where instance utilisation is read from at scrape time. */
  watchUtilization(source: () => readonly InstanceUtilization[]): void;
  /** Tells where each version's queue length and requests in flight are read from at scrape time. */
  watchLoad(source: () => readonly VersionLoad[]): void;
  /** The `/metrics` page and its content type; with `names`, only the metrics (or samples) so named. */
  scrape(names?: ReadonlySet<string>): Promise<{ contentType: string; body: string }>;
}
