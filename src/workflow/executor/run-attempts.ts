import { isSluiceError } from '../../common/errors/index.js';
import type { RetryPolicy } from '../definition/node-policies.js';
import { runWithTimeout } from './attempt-timeout.js';
import type { WorkflowClock } from './execute-options.js';

/** The last error of a call whose attempts are all spent, and how many there were. */
export class AttemptsFailed extends Error {
  override readonly name = 'AttemptsFailed';

  constructor(
    readonly lastError: unknown,
    readonly attempts: number,
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
  }
}

/** Errors that another attempt cannot fix: bad data and things that do not exist. */
function isRetryable(error: unknown): boolean {
  return !isSluiceError(error) || (error.category !== 'INVALID_ARGUMENT' && error.category !== 'NOT_FOUND');
}

/** The wait before retry `retry` (1 for the first retry): `backoffMs`, doubling each time. */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  return policy.backoffMs * 2 ** (retry - 1);
}

/**
 * Runs one call with the node's timeout per attempt and its retry policy: a failed attempt is tried
 * again after the backoff, up to `attempts` in all, unless the error is one another attempt cannot fix.
 * Throws {@link AttemptsFailed} with the last error; throws the run's abort reason when the run ends.
 */
export async function runAttempts<T>(
  work: (signal: AbortSignal) => Promise<T>,
  policy: RetryPolicy & { readonly timeoutMs: number },
  signal: AbortSignal,
  clock: WorkflowClock,
  onAttempt: () => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted();
    onAttempt();
    try {
      return await runWithTimeout(work, policy.timeoutMs, signal);
    } catch (error) {
      signal.throwIfAborted();
      if (attempt >= policy.attempts || !isRetryable(error)) throw new AttemptsFailed(error, attempt);
    }
    await clock.sleep(backoffDelay(policy, attempt), signal);
  }
}
