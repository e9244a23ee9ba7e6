import type { MessagePort } from 'node:worker_threads';
import type { ErrorCode, ErrorDetails } from '../../sdk/errors/index.js';
import type { LogFields } from '../../sdk/logging/logger.js';
import type { ModelDescription } from '../../sdk/model/model-description.js';

/** The two calls a CPU-heavy handler makes on a worker thread. */
export type HandlerStage = 'preprocess' | 'postprocess';

/** One stage of one handler call, as it is posted to a worker thread. */
export interface HandlerTask {
  /** The handler's registered name; the worker checks the export it imports against it. */
  readonly handler: string;
  /** URL of the module exporting the handler. */
  readonly module: string;
  readonly exportName: string;
  readonly stage: HandlerStage;
  /** Requests for `preprocess`, results for `postprocess`. */
  readonly items: readonly unknown[];
  readonly model: ModelDescription;
  readonly config: Readonly<Record<string, unknown>>;
  /** True when the call's signal had already aborted when the task was posted. */
  readonly aborted: boolean;
  /** The call's side channel: log lines to the main thread, an abort notice from it. */
  readonly port: MessagePort;
}

/** An error thrown on a worker thread, in a form that survives structured cloning. */
export type ThreadError =
  | { readonly kind: 'sluice'; readonly code: ErrorCode; readonly message: string; readonly details: ErrorDetails }
  | {
      readonly kind: 'error';
      readonly name: string;
      readonly message: string;
      readonly stack?: string;
      /** The Sluice error code a plain `Error` carried as its `code` (a plugin without the SDK marks a deliberate error so). */
      readonly code?: ErrorCode;
    };

/** What a worker thread answers for a task; the handler's own errors are answers, not rejections. */
export type HandlerTaskOutcome = { readonly ok: true; readonly value: readonly unknown[] } | { readonly ok: false; readonly error: ThreadError };

/** A log line the handler wrote on a worker thread. */
export interface ThreadLogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: LogFields;
}

/** Sent from the main thread when the call's signal aborts. */
export interface ThreadAbortNotice {
  readonly abort: true;
}

/** An intermediate answer the handler sent (`context.sendPartial`) from the worker thread. */
export interface ThreadPartial {
  readonly partial: unknown;
  /** Its number within the call, which the main thread's {@link ThreadPartialAck} names. */
  readonly seq: number;
}

/** Sent from the main thread once the transport has taken partial `ack` (or failed to: the client left). */
export interface ThreadPartialAck {
  readonly ack: number;
  readonly error?: ThreadError;
}

/** What the worker thread posts on a call's port. */
export type ThreadMessage = ThreadLogLine | ThreadStartNotice | ThreadPartial;

/** What the main thread posts on a call's port. */
export type MainMessage = ThreadAbortNotice | ThreadPartialAck;

/** Sent from the worker thread when it starts the task: from then on the call runs, and is no longer waiting. */
export interface ThreadStartNotice {
  readonly started: true;
}
