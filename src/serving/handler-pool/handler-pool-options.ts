import { availableParallelism } from 'node:os';
import { SluiceError } from '../../sdk/errors/index.js';

/** How the pool of handler threads is built. */
export interface HandlerPoolOptions {
  /**
   * Worker threads for CPU-heavy handlers. Default: one fewer than the cores Node may use
   * (`os.availableParallelism()`), so the event loop keeps a core to itself, but at least two, so that
   * one model's long call never holds every thread (each model version may hold all threads but one).
   */
  readonly threads?: number;
  /** How long `close()` lets running handler calls finish before it stops the threads (default 30 s). */
  readonly closeTimeoutMs?: number;
  /**
   * Node options for the threads instead of the process's own; e.g. an `--import` of module hooks, when
   * the handlers are run from sources that Node cannot load by itself.
   */
  readonly execArgv?: readonly string[];
}

/** The thread count used when none is set: `max(2, cores - 1)`. */
export function defaultHandlerThreads(): number {
  return Math.max(2, availableParallelism() - 1);
}

/** How many threads one model version's calls may hold at once: all but one, when there are two or more. */
export function threadsPerModel(threads: number): number {
  return Math.max(1, threads - 1);
}

/** The thread count to use; a set value must be a positive integer. */
export function handlerThreads(options: HandlerPoolOptions): number {
  const threads = options.threads ?? defaultHandlerThreads();
  if (!Number.isInteger(threads) || threads < 1) {
    throw new SluiceError('SLUICE_CONFIG_INVALID', `handler threads must be a positive integer, got ${threads}`);
  }
  return threads;
}
