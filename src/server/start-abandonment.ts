import { isSluiceError, SluiceError } from '../sdk/errors/index.js';

/** What a start-up given up by its `abandon` signal rejects with. */
export function abandonedStart(): SluiceError {
  return new SluiceError(
    'SLUICE_SERVER_SHUTTING_DOWN',
    'start-up abandoned: the server was asked to stop while a start-up stage (a model load, say) was still running; what had started has been stopped',
    { abandoned: true },
  );
}

/** Whether `error` is the one a start-up given up by its `abandon` signal rejects with. */
export function isAbandonedStart(error: unknown): boolean {
  return isSluiceError(error, 'SLUICE_SERVER_SHUTTING_DOWN') && error.details['abandoned'] === true;
}

/**
 * A wrapper for each stage of a start-up: once `signal` is aborted, the stage under way is no longer waited
 * for (a stage cannot be cut short, and one that never ends would keep the start-up from its clean-up
 * forever), and it rejects at once, as every later stage does, so the start goes to its clean-up. What
 * the stage does later is dropped. Without a signal, stages are awaited as they are.
 */
export function abandonableStages(signal: AbortSignal | undefined): <T>(stage: Promise<T>) => Promise<T> {
  if (signal === undefined) return (stage) => stage;
  const abandoned = new Promise<never>((_resolve, reject) => {
    const give = (): void => {
      reject(abandonedStart());
    };
    if (signal.aborted) give();
    else signal.addEventListener('abort', give, { once: true });
  });
  // Nothing may await it when no stage runs; it is observed through the race.
  abandoned.catch(() => undefined);
  return (stage) => Promise.race([stage, abandoned]);
}
