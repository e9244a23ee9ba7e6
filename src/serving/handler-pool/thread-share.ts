/** A call waiting for its model's share of the threads. */
interface Waiter {
  readonly admit: () => void;
}

/** One model version's calls on the pool: how many hold a share, and who waits for one, in order. */
interface ModelShare {
  held: number;
  readonly waiting: Waiter[];
}

/**
 * How many of the pool's threads one model version may hold at once (its calls running or queued on
 * them), so that one model's long calls never take every thread from the others: with a share of
 * threads − 1, a call of another model always finds a thread within one call's time of the others. A
 * call over its model's share waits here, in order, until one of that model's calls ends.
 */
export class ThreadShare {
  private readonly models = new Map<string, ModelShare>();

  /** `perModel`: the calls one model version may have on the threads at once (at least 1). */
  constructor(readonly perModel: number) {}

  /**
   * Takes a share for a call of `model`. Undefined when the call has it now; otherwise a promise that
   * resolves when it has it, or rejects with `signal`'s reason when the signal aborts first (the call then
   * holds nothing). Every share taken is given back with {@link give}.
   */
  take(model: string, signal: AbortSignal): Promise<void> | undefined {
    const share = this.models.get(model);
    if (share === undefined) {
      this.models.set(model, { held: 1, waiting: [] });
      return undefined;
    }
    if (share.held < this.perModel) {
      share.held += 1;
      return undefined;
    }
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        const at = share.waiting.indexOf(waiter);
        if (at >= 0) share.waiting.splice(at, 1);
        reject(signal.reason as Error);
      };
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener('abort', leave);
          resolve();
        },
      };
      signal.addEventListener('abort', leave, { once: true });
      share.waiting.push(waiter);
    });
  }

  /** Gives back a share of `model` that a call took: the model's next waiting call gets it. */
  give(model: string): void {
    const share = this.models.get(model);
    if (share === undefined) return;
    const next = share.waiting.shift();
    if (next !== undefined) {
      next.admit();
      return;
    }
    share.held -= 1;
    if (share.held === 0) this.models.delete(model);
  }

  /** Calls of `model` holding a share now, and waiting for one (for tests and diagnostics). */
  calls(model: string): { readonly holding: number; readonly waiting: number } {
    const share = this.models.get(model);
    return { holding: share?.held ?? 0, waiting: share?.waiting.length ?? 0 };
  }
}
