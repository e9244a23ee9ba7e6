/**
 * How a request learns that its client has gone. Each transport gives its own (an HTTP exchange is
 * looked at, a gRPC call tells); every layer asks it the same way.
 */
export interface Cancellation {
  /** True once the client has gone. A look, not a listener: cheap enough to ask for each request whenever a batch forms. */
  isCancelled(): boolean;
  /**
   * Aborts when the client goes, where the transport tells (a gRPC call, a workflow's model call): queued
   * work then leaves at once. Undefined where the client can only be looked at (HTTP), so that nothing
   * listens per request.
   */
  readonly signal: AbortSignal | undefined;
  /**
   * A signal that aborts when the client goes: {@link signal}, or one made on first use where the
   * transport must be watched for it (one listener on an HTTP response). For work that must stop at once
   * (a workflow run), not for each model request.
   */
  watch(): AbortSignal;
}

/** The cancellation of a request nobody cancels (a call made inside the server). */
export const NOT_CANCELLED: Cancellation = {
  isCancelled: () => false,
  signal: undefined,
  // A signal of its own each time: listeners left on a shared one would pile up.
  watch: () => new AbortController().signal,
};

/** The cancellation `signal` tells (a gRPC call's, a workflow attempt's). */
export function signalCancellation(signal: AbortSignal): Cancellation {
  return { isCancelled: () => signal.aborted, signal, watch: () => signal };
}

/** What a request's budget is made of, as its edge reads it; every field may be absent. */
export interface BudgetLimits {
  /** Milliseconds left before the client's own hard deadline (a gRPC deadline). */
  readonly deadlineMs?: number;
  /** The request's own timeout in milliseconds (`x-sluice-timeout-ms`, OIP `parameters.timeout`). */
  readonly timeoutMs?: number;
  /** Priority level, 1 = highest. */
  readonly priority?: number;
  readonly cancellation?: Cancellation;
}

/** The smaller of two optional numbers; undefined when both are absent. */
function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined || a <= b ? a : b;
}

/**
 * What one request may spend, made once at the edge of its transport and handed down: every layer (the
 * scheduler, the handler pool, the deadline sweep of handler stages, workflow runs) reads the same value.
 * Times are on the `performance.now()` clock. Two deadlines, because they mean different things:
 *
 * - {@link deadline}, the hard one: the client stops waiting then (a gRPC deadline), so past it the
 *   request is answered with a timeout wherever it is, queued, in a handler stage or running. A layer
 *   with a limit of its own (a version's response timeout) narrows it with {@link within}.
 * - {@link timeoutAt}, the request's own timeout: past it, a queued request follows its version's queue
 *   policy (refused, or moved behind the others), and a workflow run ends. When several sources give one
 *   (a header and an OIP parameter), the smallest wins, whatever the transport.
 *
 * Immutable: narrowing makes a new budget, or answers this one when nothing changes.
 */
export class RequestBudget {
  private constructor(
    /** When the budget was made: own timeouts count from here. */
    readonly startedAt: number,
    /** The hard deadline; `Infinity` when nothing sets one. */
    readonly deadline: number,
    /** The request's own timeout as it was asked for, in milliseconds (what messages name); undefined when none. */
    readonly timeoutMs: number | undefined,
    /** When the request's own timeout passes; `Infinity` when it has none. */
    readonly timeoutAt: number,
    /** Priority level, 1 = highest; undefined for the version's default. */
    readonly priority: number | undefined,
    readonly cancellation: Cancellation,
  ) {}

  /** A budget of `limits`, counted from `now`. */
  static of(limits: BudgetLimits = {}, now = performance.now()): RequestBudget {
    const { deadlineMs, timeoutMs } = limits;
    return new RequestBudget(
      now,
      deadlineMs === undefined ? Infinity : now + deadlineMs,
      timeoutMs,
      timeoutMs === undefined ? Infinity : now + timeoutMs,
      limits.priority,
      limits.cancellation ?? NOT_CANCELLED,
    );
  }

  /** True once the client has gone. */
  isCancelled(): boolean {
    return this.cancellation.isCancelled();
  }

  /** Aborts when the client goes, where the transport tells; see {@link Cancellation.signal}. */
  get signal(): AbortSignal | undefined {
    return this.cancellation.signal;
  }

  /** The earlier of the two deadlines: when the request stops being worth an answer. */
  get due(): number {
    return this.deadline <= this.timeoutAt ? this.deadline : this.timeoutAt;
  }

  /**
   * This budget with what the request itself asks (OIP `parameters`): the smaller own timeout wins,
   * counted from when the budget was made; a priority given replaces the edge's.
   */
  narrowed(timeoutMs: number | undefined, priority: number | undefined): RequestBudget {
    if (timeoutMs === undefined && priority === undefined) return this;
    const timeout = smaller(this.timeoutMs, timeoutMs);
    return new RequestBudget(
      this.startedAt,
      this.deadline,
      timeout,
      timeout === undefined ? Infinity : Math.min(this.timeoutAt, this.startedAt + timeout),
      priority ?? this.priority,
      this.cancellation,
    );
  }

  /** This budget with its hard deadline no later than `at` (a layer's own limit), at `priority` (a layer's reading of it). */
  within(at: number, priority: number | undefined = this.priority): RequestBudget {
    if (at >= this.deadline && priority === this.priority) return this;
    return new RequestBudget(this.startedAt, Math.min(at, this.deadline), this.timeoutMs, this.timeoutAt, priority, this.cancellation);
  }
}

