import type { Context } from '@opentelemetry/api';
import type { RequestBudget } from '../../budget/request-budget.js';
import type { WorkflowValue } from '../../sdk/index.js';

/** Time as the executor sees it; tests replace it to observe backoff without waiting. */
export interface WorkflowClock {
  /** Milliseconds on a monotonic clock, for debug timings. */
  now(): number;
  /** Waits `ms` between retries; rejects with `signal.reason` when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** How a node ended, as an observer hears it: {@link NodeStatus} without `not-run`. */
export type ObservedNodeStatus = Exclude<NodeStatus, 'not-run'>;

/** Watches one node (tracing, metrics). */
export interface WorkflowNodeObservation {
  /**
   * The node's trace context, handed to what it calls (model calls, handler nodes, sub-workflows) so that
   * their spans belong to the node; undefined when the node is not traced.
   */
  readonly traceContext: Context | undefined;
  /** An attempt starts (the first one too). */
  attempt(): void;
  /** A `forEach` node makes `count` calls. */
  calls(count: number): void;
  /** The node ended; `error` is what failed it or made it fall back or skip. Called once. */
  ended(status: ObservedNodeStatus, reason?: string, error?: unknown): void;
}

/** Watches one run of a workflow. */
export interface WorkflowRunObservation {
  /** Node `id` starts, or ends without starting (skipped, failed before it ran). */
  node(id: string, kind: string): WorkflowNodeObservation;
  /** The run ended, with the error that ended it when it failed. Called once. */
  ended(error: Error | undefined): void;
}

/** Told about every run and node of a request, sub-workflows included (the server's tracing and metrics). */
export interface WorkflowObserver {
  /**
   * A run of `workflow` starts; `depth` is 0 for the request's own workflow. `parent` is the trace context
   * of the request ({@link ExecuteOptions.traceContext}) or, for a sub-workflow, of the node that runs it.
   */
  runStarted(workflow: string, depth: number, parent: Context | undefined): WorkflowRunObservation;
}

/** One finished call of a `forEach` node: what a streaming API sends before the run's result. */
export interface WorkflowProgress {
  /** The `forEach` node. */
  readonly node: string;
  /** The element's position in the node's list. */
  readonly index: number;
  /** Elements in the node's list. */
  readonly count: number;
  /** The call's outputs by name. */
  readonly outputs: Readonly<Record<string, WorkflowValue>>;
}

/**
 * Told of each finished `forEach` call of a run; what it returns is not waited for. One that throws, or
 * returns a promise that rejects, is detached (told nothing more, a warning logged) and the run goes on:
 * progress never fails a run.
 */
export type ProgressConsumer = (progress: WorkflowProgress) => unknown;

/** One node of a run that settled without failing it: what a streaming API sends when asked for every node. */
export interface WorkflowNodeProgress {
  /** The node. */
  readonly node: string;
  /** `ok`, `fallback` (it failed and its `onError` fallback stands in), or `skipped`. */
  readonly status: 'ok' | 'fallback' | 'skipped';
  /** Its outputs by name (the fallback's for `fallback`); absent when it was skipped. */
  readonly outputs?: Readonly<Record<string, WorkflowValue>>;
}

/** Told of each node of a run as it settles; detached when it fails, as a {@link ProgressConsumer} is. */
export type NodeProgressConsumer = (progress: WorkflowNodeProgress) => unknown;

/** How one run is bounded and observed. */
export interface ExecuteOptions {
  /**
   * What the request may spend: its cancellation (the client went away, the server is stopping) cancels
   * the run; the earlier of its hard deadline and its own timeout bounds the run; its priority goes with
   * every model call of the run, sub-workflows included (a model with fewer levels runs it at its
   * lowest). Unbounded when absent.
   */
  readonly budget?: RequestBudget;
  /**
   * The longest one run may take, in milliseconds, when its workflow's file sets no `responseTimeoutMs`
   * (the server's `responseTimeoutMs`); it bounds sub-workflow runs too. Without it, such runs are
   * bounded only by the request's deadline.
   */
  readonly defaultResponseTimeoutMs?: number;
  /** Return per-node timings, attempts and the skipped nodes. */
  readonly debug?: boolean;
  readonly clock?: WorkflowClock;
  readonly observer?: WorkflowObserver;
  /** The trace context of the request the run serves, opaque to the executor; handed to the observer. */
  readonly traceContext?: Context;
  /**
   * Told of every call of the run's `forEach` nodes as it succeeds (in the order they finish), while the
   * run goes on; not told once the run has ended, nor of the calls inside sub-workflows. A consumer that
   * fails is detached, and the run goes on ({@link ProgressConsumer}).
   */
  readonly onProgress?: ProgressConsumer;
  /**
   * Told of every node of the run as it settles (ok, fallback or skipped; a node that fails the run ends
   * it instead), in the order they settle, while the run goes on; of the nodes inside sub-workflows only
   * with {@link nestedNodeProgress}. Detached when it fails, as {@link onProgress} is.
   */
  readonly onNodeProgress?: NodeProgressConsumer;
  /**
   * Tell {@link onNodeProgress} of the nodes of sub-workflows too, as they settle (before the workflow
   * node that ran them), each named by its path from the run's node: `outer.inner`, `outer.inner.deeper`
   * a level further down, `line[2].read` in the third call of a `forEach` workflow node.
   */
  readonly nestedNodeProgress?: boolean;
}

/** How a node ended. `not-run`: the run ended before it could start; `cancelled`: while it ran. */
export type NodeStatus = 'ok' | 'fallback' | 'skipped' | 'failed' | 'cancelled' | 'not-run';

/** What happened to one node, in a debug result. Times are milliseconds from the start of the run. */
export interface NodeTrace {
  readonly status: NodeStatus;
  readonly startMs?: number;
  readonly durationMs?: number;
  /** Attempts made, retries included, summed over the calls of a `forEach`. */
  readonly attempts: number;
  /** Calls made by a `forEach` node (one per list element). */
  readonly calls?: number;
  /** Why it was skipped, or the error that failed it. */
  readonly reason?: string;
  /** The trace of the sub-workflow a `workflow:` node ran (its last attempt). */
  readonly workflow?: WorkflowDebug;
}

/** The debug part of a result. */
export interface WorkflowDebug {
  readonly workflow: string;
  readonly totalMs: number;
  readonly nodes: Readonly<Record<string, NodeTrace>>;
  /** The skipped nodes, in the order they were skipped. */
  readonly skipped: readonly string[];
}

/** What a run returns: the workflow's outputs by name (an output whose every source was skipped is absent). */
export interface WorkflowResult {
  readonly outputs: Readonly<Record<string, WorkflowValue>>;
  readonly debug?: WorkflowDebug;
}
