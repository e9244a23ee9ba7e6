import type { Cancellation } from '../../src/budget/request-budget.js';

/**
 * A cancellation that is only looked at, as an HTTP exchange's is: `gone` tells whether the client left.
 * Nothing tells it, so `watch` has nothing to watch; no test here asks it.
 */
export function lookedAtCancellation(gone: () => boolean): Cancellation {
  return {
    isCancelled: gone,
    signal: undefined,
    watch: () => {
      throw new Error('a looked-at test cancellation has no signal to watch');
    },
  };
}

/** A cancellation both looked at (`gone`) and told (`signal`). */
export function toldCancellation(signal: AbortSignal, gone: () => boolean = () => signal.aborted): Cancellation {
  return { isCancelled: () => gone() || signal.aborted, signal, watch: () => signal };
}
