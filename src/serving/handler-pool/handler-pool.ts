import { types } from 'node:util';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { SluiceError } from '../../common/errors/index.js';
import type { Logger } from '../../common/logger.js';
import type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from '../../plugins/sdk/handler.js';
import { checkThreadBodyDepth } from './body-depth.js';
import { deadlineOf } from './bounded-context.js';
import { handlerThreads, threadsPerModel, type HandlerPoolOptions } from './handler-pool-options.js';
import type { HandlerStage, HandlerTask, HandlerTaskOutcome, ThreadAbortNotice, ThreadLogLine } from './handler-task.js';
import { fromThreadError } from './thread-error.js';
import { ThreadShare } from './thread-share.js';

const DEFAULT_CLOSE_TIMEOUT_MS = 30_000;

/**
 * How long a call on a thread may go on once its model version is unloaded (its signal aborted) before
 * the thread is stopped: time for a handler that watches the signal to return, while one stuck in a loop
 * does not keep a thread from the other models until its response timeout.
 */
export const UNLOAD_GRACE_MS = 1_000;

/** Why a call's task was taken off its thread or the queue. */
type StopReason = 'deadline' | 'unloaded';

function writeLine(logger: Logger, line: ThreadLogLine): void {
  logger[line.level](line.message, line.fields);
}

/** Log lines posted before the answer may still wait on the port when the answer arrives. */
function drainLines(port: MessagePort, logger: Logger): void {
  for (let entry = receiveMessageOnPort(port); entry !== undefined; entry = receiveMessageOnPort(port)) {
    writeLine(logger, entry.message as ThreadLogLine);
  }
}

/** The answer to a call that ran past its deadline on (or waiting for) a handler thread. */
function timedOut(handler: Handler, stage: HandlerStage, context: HandlerContext, started: number): SluiceError {
  const { name, version } = context.model;
  const waitedMs = Math.round(performance.now() - started);
  return new SluiceError(
    'SLUICE_RESPONSE_TIMEOUT',
    `model \`${name}\` version \`${version}\` did not answer in time: its response timeout passed while handler \`${handler.name}\` ran ${stage} on a handler thread (${waitedMs} ms), and the thread was stopped; raise the timeout or make the handler finish sooner`,
    { stage },
  );
}

/** The answer to a call still running, or waiting, {@link UNLOAD_GRACE_MS} after its version was unloaded. */
function unloaded(handler: Handler, stage: HandlerStage, context: HandlerContext): SluiceError {
  const { name, version } = context.model;
  return new SluiceError(
    'SLUICE_MODEL_UNLOADING',
    `model \`${name}\` version \`${version}\` was unloaded while handler \`${handler.name}\` ran ${stage} on a handler thread, which had not returned ${UNLOAD_GRACE_MS} ms later, so the thread was stopped; a handler that watches its context's signal can return sooner`,
    { stage },
  );
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
   * {@link BoundedHandlerContext} rejects with `SLUICE_RESPONSE_TIMEOUT` once its deadline passes, its
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
    const pool = (this.pool ??= this.start());
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (line: ThreadLogLine) => {
      writeLine(context.logger, line);
    });
    const started = performance.now();
    // Stops the task: it leaves piscina's queue (or this pool's share queue), or its thread is stopped
    // and replaced when it runs, since a handler stuck in a loop cannot be interrupted otherwise.
    const stop = new AbortController();
    let stoppedFor: StopReason | undefined;
    const stopFor = (reason: StopReason): void => {
      stoppedFor ??= reason;
      stop.abort();
    };
    const deadline = deadlineOf(context);
    const timer = deadline === undefined ? undefined : setTimeout(() => {
      stopFor('deadline');
    }, Math.max(0, deadline - started));
    let graceTimer: NodeJS.Timeout | undefined;
    const startGrace = (): void => {
      graceTimer = setTimeout(() => {
        stopFor('unloaded');
      }, UNLOAD_GRACE_MS);
    };
    const abort = (): void => {
      port1.postMessage({ abort: true } satisfies ThreadAbortNotice);
      startGrace();
    };
    if (context.signal.aborted) startGrace();
    else context.signal.addEventListener('abort', abort, { once: true });
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
    const model = `${context.model.name}\n${context.model.version}`;
    let holdsShare = false;
    let outcome: HandlerTaskOutcome;
    try {
      const turn = this.share.take(model, stop.signal);
      if (turn !== undefined) await turn;
      holdsShare = true;
      // The pool may have been closed while the call waited for its share.
      if (this.isClosing()) throw this.shuttingDown();
      outcome = (await pool.run(task, { transferList: [port2], signal: stop.signal })) as HandlerTaskOutcome;
    } catch (error) {
      if (stoppedFor === 'deadline') throw timedOut(handler, stage, context, started);
      if (stoppedFor === 'unloaded') throw unloaded(handler, stage, context);
      throw this.threadFailure(error);
    } finally {
      if (holdsShare) this.share.give(model);
      clearTimeout(timer);
      clearTimeout(graceTimer);
      context.signal.removeEventListener('abort', abort);
      drainLines(port1, context.logger);
      port1.close();
    }
    if (!outcome.ok) throw fromThreadError(outcome.error);
    return outcome.value;
  }

  /**
   * Stops the threads; idempotent. Running and queued calls may finish for up to `closeTimeoutMs`
   * (with `force`, they are cut off at once); calls made afterwards are refused.
   */
  close(options: { readonly force?: boolean } = {}): Promise<void> {
    this.closing ??= (() => {
      const pool = this.pool;
      if (pool === undefined) return Promise.resolve();
      return options.force === true ? pool.destroy() : pool.close();
    })();
    return this.closing;
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

  private isClosing(): boolean {
    return this.closing !== undefined;
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
