import type { Context } from '@opentelemetry/api';
import type { Logger } from '../../sdk/logging/logger.js';
import type { Tensor } from '../../sdk/tensor/index.js';
import type { NodeHandler } from '../../sdk/index.js';
import type { WorkflowPlan } from '../planner/workflow-plan.js';

/** One model call a workflow node makes. */
export interface ModelCall {
  /** The workflow and node the call is for (for logs and metrics). */
  readonly workflow: string;
  readonly node: string;
  readonly model: string;
  /** The version the node names; undefined for the model's default version. */
  readonly version: string | undefined;
  /** One tensor per model input, named after the input. */
  readonly inputs: Readonly<Record<string, Tensor>>;
  /** Aborted when the attempt times out or the run ends; the call should then stop waiting. */
  readonly signal: AbortSignal;
  /**
   * The request's priority level (1 = highest), when it gave one; a model with fewer levels should run
   * the call at its lowest.
   */
  readonly priority?: number;
  /** The trace context of the node making the call; absent when it is not traced. */
  readonly traceContext?: Context;
}

/**
 * How the executor runs models: the server implements it over the scheduler, so that concurrent calls
 * (the calls of a `forEach`, parallel branches, other requests) batch together.
 */
export interface ModelCaller {
  /** Runs the model once; resolves with its outputs keyed by output name. */
  infer(call: ModelCall): Promise<Readonly<Record<string, Tensor>>>;
}

/** Everything outside the executor that a run talks to. */
export interface WorkflowServices {
  readonly models: ModelCaller;
  /** The handler registered under a full name (`ocr/crop-lines`). */
  handler(name: string): NodeHandler | undefined;
  /** The plan of a registered workflow, for `workflow:` nodes. */
  workflow(name: string): WorkflowPlan | undefined;
  /** A handler's own settings, passed as `NodeHandlerContext.config` (none when absent). */
  handlerConfig?(name: string): Readonly<Record<string, unknown>>;
  readonly logger: Logger;
}

/** How one node of a run ended, as plugin hooks hear it (through the server's workflow observer). */
export interface NodeEndEvent {
  readonly workflow: string;
  readonly node: string;
  readonly status: 'succeeded' | 'failed' | 'skipped';
  /** Attempts made, retries included (summed over a `forEach`'s calls). */
  readonly attempts: number;
  readonly durationMs: number;
}
