import { isSluiceError, type ErrorCategory } from '../../sdk/errors/index.js';
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

/**
 * Categories of errors that another attempt cannot fix, because the request or the server's state must
 * change first: bad data, things that do not exist or already do, refused credentials or access, a state
 * that forbids the call, something not supported.
 */
const LASTING: ReadonlySet<ErrorCategory> = new Set<ErrorCategory>([
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'FAILED_PRECONDITION',
  'UNIMPLEMENTED',
]);

/**
 * Whether another attempt may succeed: not for an error of a {@link LASTING} category — also when it
 * failed a node of a sub-workflow, so that nested workflows do not multiply their retries over it.
 */
function isRetryable(error: unknown): boolean {
  let current: unknown = error;
  while (isSluiceError(current)) {
    if (LASTING.has(current.category)) return false;
    if (current.code !== 'SLUICE_WORKFLOW_NODE_FAILED') return true;
    current = current.cause;
  }
  return true;
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
