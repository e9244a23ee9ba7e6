/** A call waiting for its model's share of the threads. */
export interface ShareWaiter {
  /** True when the call gave up while it waited (its client left): it is passed over, and told so. */
  readonly gone?: () => boolean;
}

/** A waiter as the share keeps it. */
interface Waiting {
  readonly waiter: ShareWaiter;
  readonly admit: () => void;
  readonly dismiss: () => void;
}

/** One model version's calls on the pool: how many hold a share, and who waits for one, in order. */
interface ModelShare {
  held: number;
  /** Postprocess calls: their request has run on the model, so they go before any preprocess. */
  readonly finishing: Waiting[];
  readonly starting: Waiting[];
}

/** Why a call was not given a share: its signal aborted, or it had gone when its turn came. */
export class ShareLeft extends Error {
  constructor(readonly reason: 'aborted' | 'gone') {
    super(reason === 'gone' ? 'the call had gone when its turn came' : 'the call stopped waiting');
  }
}

/**
 * How many of the pool's threads one model version may hold at once (its calls running or queued on
 * them), so that one model's long calls never take every thread from the others: with a share of
 * threads − 1, a call of another model always finds a thread within one call's time of the others. A
 * call over its model's share waits here until one of that model's calls ends: postprocess calls first
 * (their request has already run on the model), then preprocess calls, each in the order they came.
 * Versions are told apart by identity (the version's model description object), so a version registered
 * again under the same name and version starts with a share of its own.
 */
export class ThreadShare {
  private readonly models = new Map<object, ModelShare>();

  /** `perModel`: the calls one model version may have on the threads at once (at least 1). */
  constructor(readonly perModel: number) {}

  /**
   * Takes a share for a call of `model`. Undefined when the call has it now; otherwise a promise that
   * resolves when it has it, or rejects with {@link ShareLeft} when `signal` aborts first or the waiter
   * has gone when its turn comes (the call then holds nothing). Every share taken is given back with
   * {@link give}.
   */
  take(model: object, finishing: boolean, signal: AbortSignal, waiter: ShareWaiter = {}): Promise<void> | undefined {
    const share = this.models.get(model);
    if (share === undefined) {
      this.models.set(model, { held: 1, finishing: [], starting: [] });
      return undefined;
    }
    if (share.held < this.perModel) {
      share.held += 1;
      return undefined;
    }
    if (signal.aborted) return Promise.reject(new ShareLeft('aborted'));
    const lane = finishing ? share.finishing : share.starting;
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        const at = lane.indexOf(waiting);
        if (at >= 0) lane.splice(at, 1);
        reject(new ShareLeft('aborted'));
      };
      const waiting: Waiting = {
        waiter,
        admit: () => {
          signal.removeEventListener('abort', leave);
          resolve();
        },
        dismiss: () => {
          signal.removeEventListener('abort', leave);
          reject(new ShareLeft('gone'));
        },
      };
      signal.addEventListener('abort', leave, { once: true });
      lane.push(waiting);
    });
  }

  /** Gives back a share of `model` that a call took: the model's next waiting call that has not gone gets it. */
  give(model: object): void {
    const share = this.models.get(model);
    if (share === undefined) return;
    for (let next = this.next(share); next !== undefined; next = this.next(share)) {
      if (next.waiter.gone?.() === true) {
        next.dismiss();
        continue;
      }
      next.admit();
      return;
    }
    share.held -= 1;
    if (share.held === 0) this.models.delete(model);
  }

  /** Dismisses the waiting calls of `model` that have gone; answers how many still wait. */
  prune(model: object): number {
    const share = this.models.get(model);
    if (share === undefined) return 0;
    for (const lane of [share.finishing, share.starting]) {
      for (const waiting of lane.filter((w) => w.waiter.gone?.() === true)) {
        lane.splice(lane.indexOf(waiting), 1);
        waiting.dismiss();
      }
    }
    return share.finishing.length + share.starting.length;
  }

  /** Calls of `model` holding a share now, and waiting for one (for tests and diagnostics). */
  calls(model: object): { readonly holding: number; readonly waiting: number } {
    const share = this.models.get(model);
    return { holding: share?.held ?? 0, waiting: (share?.finishing.length ?? 0) + (share?.starting.length ?? 0) };
  }

  private next(share: ModelShare): Waiting | undefined {
    return share.finishing.shift() ?? share.starting.shift();
  }
}
