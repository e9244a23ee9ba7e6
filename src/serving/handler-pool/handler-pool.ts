import { types } from 'node:util';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { SluiceError } from '../../sdk/errors/index.js';
import { InFlightCount } from '../in-flight-count.js';
import { MAX_TIMER_DELAY_MS } from '../../timers/long-timeout.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from '../../sdk/handler/handler.js';
import { checkThreadBodyDepth } from './body-depth.js';
import { boundsOf, budgetOf } from './bounded-context.js';
import { handlerThreads, threadsPerModel, type HandlerPoolOptions } from './handler-pool-options.js';
import type { HandlerStage, HandlerTask, HandlerTaskOutcome, ThreadAbortNotice, ThreadLogLine, ThreadMessage, ThreadPartial, ThreadPartialAck, ThreadStartNotice } from './handler-task.js';
import { stoppedCall, UNLOAD_GRACE_MS, waitFull, type ThreadCallStop } from './thread-call-errors.js';
import { fromThreadError, toThreadError } from './thread-error.js';
import { ShareLeft, ThreadShare } from './thread-share.js';

const DEFAULT_CLOSE_TIMEOUT_MS = 30_000;

function writeLine(logger: Logger, line: ThreadLogLine): void {
  logger[line.level](line.message, line.fields);
}

function isStartNotice(message: ThreadMessage): message is ThreadStartNotice {
  return 'started' in message;
}

function isPartial(message: ThreadMessage): message is ThreadPartial {
  return 'partial' in message;
}

/**
 * Hands an intermediate answer from the thread to the request's context, and tells the thread when the
 * transport has taken it (or could not: the client left), so that the handler waits as it would on the
 * event loop.
 */
function relayPartial(port: MessagePort, message: ThreadPartial, context: HandlerContext): void {
  context.sendPartial(message.partial).then(
    () => {
      port.postMessage({ ack: message.seq } satisfies ThreadPartialAck);
    },
    (error: unknown) => {
      port.postMessage({ ack: message.seq, error: toThreadError(error) } satisfies ThreadPartialAck);
    },
  );
}

/** Log lines (and partials not waited for) posted before the answer may still wait on the port when the answer arrives. */
function drainLines(port: MessagePort, context: HandlerContext): void {
  for (let entry = receiveMessageOnPort(port); entry !== undefined; entry = receiveMessageOnPort(port)) {
    const message = entry.message as ThreadMessage;
    if (isPartial(message)) void context.sendPartial(message.partial).catch(() => undefined);
    else if (!isStartNotice(message)) writeLine(context.logger, message);
  }
}

/**
 * Worker threads for CPU-heavy handlers (see `Handler.cpuHeavy`): their `preprocess` and `postprocess`
 * run here, off the event loop. The threads start on the first call and stop with {@link close}.
 */
export class HandlerPool {
  readonly threads: number;
  /** Each model version's calls on the threads, so that none holds them all. */
  private readonly share: ThreadShare;
  private pool: Piscina | undefined;
  private closing: Promise<void> | undefined;
  private readonly inFlight = new InFlightCount();

  constructor(
    private readonly options: HandlerPoolOptions,
    private readonly logger: Logger,
  ) {
    this.threads = handlerThreads(options);
    this.share = new ThreadShare(threadsPerModel(this.threads));
  }

  /** True once the threads have been started. */
  get started(): boolean {
    return this.pool !== undefined;
  }

  /**
   * The handler itself when it runs on the event loop; for a CPU-heavy one, a stand-in of the same name
   * whose stages run on the pool. Ordinary handlers therefore pay nothing for the pool.
   */
  route<State>(handler: Handler<State>): Handler<State> {
    if (handler.cpuHeavy === undefined) return handler;
    return {
      name: handler.name,
      cpuHeavy: handler.cpuHeavy,
      preprocess: async (requests: readonly HandlerRequest[], context: HandlerContext) =>
        (await this.run(handler, 'preprocess', requests, context)) as readonly PreparedRequest<State>[],
      postprocess: (results: readonly HandlerResult<State>[], context: HandlerContext) => this.run(handler, 'postprocess', results, context),
    };
  }

  /**
   * Runs one stage of a CPU-heavy handler on a worker thread. The handler's errors come back as thrown
   * there (a `SluiceError` as such); a thread that fails outright rejects with an `Error` saying so, and
   * calls after {@link close} with `SLUICE_SERVER_SHUTTING_DOWN`. A request body nested too deeply to
   * cross threads is refused with `SLUICE_REQUEST_INVALID`. A call whose context is a
   * {@link BoundedHandlerContext} rejects with `SLUICE_RESPONSE_TIMEOUT` once its budget's deadline passes, its
   * thread stopped and replaced. When the context's signal aborts (its version is unloaded), the thread is
   * told, and a call that has not returned {@link UNLOAD_GRACE_MS} later is stopped the same way and
   * rejects with `SLUICE_MODEL_UNLOADING`. A model version's calls hold at most all threads but one
   * ({@link ThreadShare}); its further calls wait, in order, for one of its own to end.
   */
  async run(handler: Handler, stage: HandlerStage, items: readonly unknown[], context: HandlerContext): Promise<readonly unknown[]> {
    if (this.closing !== undefined) throw this.shuttingDown();
    const ref = handler.cpuHeavy;
    if (ref === undefined) throw new SluiceError('SLUICE_INTERNAL', `handler \`${handler.name}\` is not CPU-heavy and runs on the event loop`);
    // Results carry the same requests, checked here on their way in.
    if (stage === 'preprocess') for (const item of items) checkThreadBodyDepth((item as Partial<HandlerRequest> | null)?.body);
    const bounds = boundsOf(context);
    const budget = budgetOf(context);
    // The version's description object: a version registered again is another object, with a share of its own.
    const model = context.model;
    if (budget !== undefined && (budget.isCancelled() || budget.signal?.aborted === true)) throw stoppedCall('client-gone', false, handler, stage, context, performance.now());
    if (stage === 'preprocess' && bounds.waitLimit !== undefined && this.share.calls(model).waiting >= bounds.waitLimit && this.share.prune(model) >= bounds.waitLimit) {
      throw waitFull(context, bounds.waitLimit);
    }
    const pool = (this.pool ??= this.start());
    const { port1, port2 } = new MessageChannel();
    // Posted: handed to piscina, on a thread or next in its queue. Running: a thread has started it.
    let posted = false;
    let running = false;
    port1.on('message', (message: ThreadMessage) => {
      if (isStartNotice(message)) running = true;
      else if (isPartial(message)) relayPartial(port1, message, context);
      else writeLine(context.logger, message);
    });
    const started = performance.now();
    // Stops the call: it leaves the wait for its share or piscina's queue, or its thread is stopped and
    // replaced when it runs, since a handler stuck in a loop cannot be interrupted otherwise.
    const stop = new AbortController();
    let stoppedFor: ThreadCallStop | undefined;
    const stopFor = (reason: ThreadCallStop): void => {
      if (stoppedFor !== undefined) return;
      stoppedFor = reason;
      stop.abort();
    };
    const timers: NodeJS.Timeout[] = [];
    // A wait longer than a timer holds is never reached: the hard deadline, bounded by the version's
    // response timeout, comes first (and a timer past its limit would fire at once).
    const after = (ms: number, then: () => void): void => {
      if (ms <= MAX_TIMER_DELAY_MS) timers.push(setTimeout(then, Math.max(0, ms)));
    };
    if (budget !== undefined) after(budget.deadline - started, () => {
      stopFor('deadline');
    });
    // Waiting for the model's share of the threads is queueing: the request's own timeout and its
    // client's leaving end that wait (piscina's queue, behind other models' calls, is short by the share).
    if (budget !== undefined && bounds.ownTimeoutEndsWait === true) after(budget.timeoutAt - started, () => {
      if (!posted) stopFor('own-timeout');
    });
    const clientLeft = (): void => {
      if (!posted) stopFor('client-gone');
    };
    const clientSignal = budget?.signal;
    clientSignal?.addEventListener('abort', clientLeft, { once: true });
    // A call still waiting for its share leaves at once; a posted one is told, and stopped if it goes on
    // too long after an unload. The signal also aborts when the client leaves: the thread is told then
    // too, and the call ends when the handler returns (its answer has nowhere to go, but the thread is not
    // stopped for a client).
    const unload = (): void => {
      const clientGone = budget !== undefined && (budget.isCancelled() || budget.signal?.aborted === true);
      if (!posted) {
        stopFor(clientGone ? 'client-gone' : 'unloaded');
        return;
      }
      port1.postMessage({ abort: true } satisfies ThreadAbortNotice);
      if (!clientGone)
        after(UNLOAD_GRACE_MS, () => {
          stopFor('unloaded');
        });
    };
    if (context.signal.aborted) unload();
    else context.signal.addEventListener('abort', unload, { once: true });
    const task: HandlerTask = {
      handler: handler.name,
      module: ref.module,
      exportName: ref.exportName ?? 'default',
      stage,
      // Inputs are copied, never moved: they may share buffers with batch-mates or Node's Buffer pool.
      items,
      model: context.model,
      config: context.config,
      aborted: context.signal.aborted,
      port: port2,
    };
    let holdsShare = false;
    let outcome: HandlerTaskOutcome;
    this.inFlight.began();
    try {
      const turn = this.share.take(model, stage === 'postprocess', stop.signal, budget !== undefined ? { gone: () => budget.isCancelled() } : {});
      if (turn !== undefined) await turn;
      holdsShare = true;
      posted = true;
      outcome = (await pool.run(task, { transferList: [port2], signal: stop.signal })) as HandlerTaskOutcome;
    } catch (error) {
      if (error instanceof ShareLeft && error.reason === 'gone') throw stoppedCall('client-gone', false, handler, stage, context, started);
      if (stoppedFor !== undefined) throw stoppedCall(stoppedFor, running, handler, stage, context, started);
      throw this.threadFailure(error);
    } finally {
      if (holdsShare) this.share.give(model);
      for (const timer of timers) clearTimeout(timer);
      context.signal.removeEventListener('abort', unload);
      clientSignal?.removeEventListener('abort', clientLeft);
      drainLines(port1, context);
      port1.close();
      this.inFlight.ended();
    }
    if (!outcome.ok) throw fromThreadError(outcome.error);
    return outcome.value;
  }

  /**
   * Stops the threads; idempotent. Running and waiting calls may finish for up to `closeTimeoutMs`
   * (with `force`, they are cut off at once) and are then cut off with `SLUICE_SERVER_SHUTTING_DOWN`;
   * calls made afterwards are refused.
   */
  close(options: { readonly force?: boolean } = {}): Promise<void> {
    this.closing ??= (async () => {
      const pool = this.pool;
      if (pool === undefined) return;
      // The pool waits for its calls itself, then destroys the threads: piscina's own graceful close
      // never ends when a task is aborted (a deadline, an unload) while it closes.
      if (options.force !== true) await this.settled(this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
      await pool.destroy();
    })();
    return this.closing;
  }

  /** Calls in the pool now, waiting for a thread or running on one. */
  get callsInFlight(): number {
    return this.inFlight.value;
  }

  /** Resolves true once no call is in the pool, or false when `timeoutMs` passes first. */
  settled(timeoutMs: number): Promise<boolean> {
    return this.inFlight.settled(timeoutMs);
  }

  private start(): Piscina {
    const pool = new Piscina({
      filename: new URL('./handler-worker.js', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      closeTimeout: this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      ...(this.options.execArgv === undefined ? {} : { execArgv: [...this.options.execArgv] }),
    });
    pool.on('error', (error: unknown) => {
      this.logger.warn('handler threads stopped with an error', { error: error instanceof Error ? error.message : String(error) });
    });
    this.logger.info('handler threads started', { threads: this.threads });
    return pool;
  }

  private threadFailure(error: unknown): Error {
    if (this.closing !== undefined) return this.shuttingDown();
    // Errors raised by the thread machinery may come from another realm, where `instanceof Error` fails.
    const reason = types.isNativeError(error) ? error.message : String(error);
    return new Error(`its worker thread failed: ${reason}`, { cause: error });
  }

  private shuttingDown(): SluiceError {
    return new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and its handler threads are stopped; retry on another replica');
  }
}
