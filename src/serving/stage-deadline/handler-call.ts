import type { Span } from '@opentelemetry/api';
import { SluiceError } from '../../sdk/errors/index.js';
import type { RequestBudget } from '../../budget/request-budget.js';
import { endFailed } from '../../telemetry/tracing/span-helpers.js';
import type { HandlerStage } from '../handler-pool/handler-task.js';
import type { ModelVersion } from '../model-version.js';
import type { SweptCall } from './deadline-sweep.js';

/**
 * Told once, when a call that began on a version is settled: when it began (`performance.now()` clock),
 * its queue time in µs if it ran (see {@link HandlerCall.queueUs}), and the error it failed with, if any.
 */
export type HandlerCallObserver = (version: ModelVersion, started: number, queueUs: number | undefined, failure?: { readonly error: unknown }) => void;

/**
 * One request to a model's handler and its answer. The answer is settled by whoever gets there first:
 * the request's own run, or, for a handler on the event loop, the deadline sweep when a stage's promise
 * has not settled by the request's response timeout (`SLUICE_RESPONSE_TIMEOUT`, as a CPU-heavy handler's
 * stage on its thread is answered). Once settled, later settling is ignored.
 */
export class HandlerCall<Answer> implements SweptCall {
  /** What the client is answered with. */
  readonly answer: Promise<Answer>;
  deadline = Infinity;
  expired = false;
  linked = false;
  prev: SweptCall | undefined = undefined;
  next: SweptCall | undefined = undefined;
  /** The request's time in the model's queue, in µs, once it has left the queue to run. */
  queueUs: number | undefined = undefined;
  // Set by the promise's executor, which runs in the constructor.
  private resolveAnswer!: (answer: Answer) => void;
  private rejectAnswer!: (error: unknown) => void;
  private version: ModelVersion | undefined = undefined;
  private started = 0;
  /** The stage running now, for the message. */
  private stage: HandlerStage = 'preprocess';
  /** The running stage's span, ended as failed when the stage is abandoned. */
  private span: Span | undefined = undefined;
  private settled = false;

  /** `observer` is told how the call ended, once, if it began on a version. */
  constructor(private readonly observer?: HandlerCallObserver) {
    this.answer = new Promise<Answer>((resolve, reject) => {
      this.resolveAnswer = resolve;
      this.rejectAnswer = reject;
    });
  }

  /**
   * Names the version the request runs on, when it started (`performance.now()` clock) and its budget on
   * that version: the call must be answered by the budget's hard deadline.
   */
  begin(version: ModelVersion, started: number, budget: RequestBudget): void {
    this.version = version;
    this.started = started;
    this.deadline = budget.deadline;
  }

  /** Notes the stage about to wait and its span; returns the call, to enter it into the sweep. */
  during(stage: HandlerStage, span: Span | undefined): this {
    this.stage = stage;
    this.span = span;
    return this;
  }

  /** Answers the request, unless it has its answer already. */
  resolve(answer: Answer): void {
    if (!this.settle()) return;
    this.resolveAnswer(answer);
  }

  /** Fails the request, unless it has its answer already. */
  fail(error: unknown): void {
    if (!this.settle({ error })) return;
    this.rejectAnswer(error);
  }

  expire(now: number): void {
    if (this.settled) return;
    const name = this.version?.name ?? '';
    const error = new SluiceError(
      'SLUICE_RESPONSE_TIMEOUT',
      `model \`${name}\` version \`${this.version?.version ?? ''}\` did not answer in time: its response timeout passed after ${Math.round(now - this.started)} ms while handler \`${this.version?.manifest.handler ?? ''}\` ran ${this.stage}, whose promise had not settled; raise the timeout or make the handler finish sooner`,
      { stage: this.stage },
    );
    this.settle({ error });
    if (this.span !== undefined) endFailed(this.span, error);
    this.rejectAnswer(error);
  }

  /** Marks the call settled and tells the observer; false when it was settled already. */
  private settle(failure?: { readonly error: unknown }): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.version !== undefined) this.observer?.(this.version, this.started, this.queueUs, failure);
    return true;
  }
}
