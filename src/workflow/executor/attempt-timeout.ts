/** The reason an attempt's signal is aborted with when the attempt runs out of time. */
export class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';

  constructor(readonly timeoutMs: number) {
    super(`did not answer within ${timeoutMs} ms`);
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/**
 * Runs one attempt with its own signal, aborted when `timeoutMs` passes (with an {@link AttemptTimeout})
 * or when `parent` aborts (with the parent's reason). The returned promise settles at that moment even
 * if the work never does, so an unresponsive model or handler cannot hold the run.
 */
export function runWithTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, parent: AbortSignal): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    if (parent.aborted) {
      controller.abort(parent.reason);
      reject(asError(parent.reason));
      return;
    }
    const settle = (outcome: () => void): void => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
      outcome();
    };
    const stop = (reason: unknown): void => {
      settle(() => {
        controller.abort(reason);
        reject(asError(reason));
      });
    };
    const onParentAbort = (): void => {
      stop(parent.reason);
    };
    parent.addEventListener('abort', onParentAbort, { once: true });
    const timer = setTimeout(() => {
      stop(new AttemptTimeout(timeoutMs));
    }, timeoutMs);
    let pending: Promise<T>;
    try {
      pending = work(controller.signal);
    } catch (error) {
      pending = Promise.reject(asError(error));
    }
    pending.then(
      (value) => {
        settle(() => {
          resolve(value);
        });
      },
      (error: unknown) => {
        settle(() => {
          reject(asError(error));
        });
      },
    );
  });
}
