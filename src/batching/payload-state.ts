import { SluiceError } from '../sdk/errors/index.js';

/**
 * Where a request is in the scheduler. The only place the life of a payload is defined:
 *
 *   queued ──▶ batched ──▶ executing ──▶ answered
 *     │           │            ├──────▶ expired   (answered 504 while its run goes on; the late result is dropped)
 *     │           │            └──────▶ queued    (its instance failed fatally: retried once on another)
 *     ├──▶ cancelled (client gone)
 *     ├──▶ expired   (deadline passed while queued)
 *     └──▶ answered  (refused while queued: unloading, no workers, shutdown)
 *
 * `batched` is the short step between leaving the queue and the instance starting the run.
 */
export type PayloadState = 'queued' | 'batched' | 'executing' | 'answered' | 'cancelled' | 'expired';

const NEXT: Readonly<Record<PayloadState, readonly PayloadState[]>> = {
  queued: ['batched', 'cancelled', 'expired', 'answered'],
  batched: ['executing', 'answered', 'expired'],
  executing: ['answered', 'expired', 'queued'],
  answered: [],
  cancelled: [],
  expired: [],
};

/** States in which the payload still owes its caller an answer. */
export function isLive(state: PayloadState): boolean {
  return state === 'queued' || state === 'batched' || state === 'executing';
}

/** Checks a transition against the state diagram; a wrong one is a scheduler bug. */
export function assertTransition(from: PayloadState, to: PayloadState): void {
  if (!NEXT[from].includes(to)) throw new SluiceError('SLUICE_INTERNAL', `scheduler bug: a payload cannot go from ${from} to ${to}`);
}
