/** How often a failed attempt is tried again; the wait doubles after each retry. */
export interface RetryPolicy {
  /** Total attempts, the first included (1 = no retry). */
  readonly attempts: number;
  /** Wait before the first retry, in milliseconds. */
  readonly backoffMs: number;
}

/** What a node's failure does once its retries are spent. */
export type ErrorPolicy =
  | { readonly kind: 'fail' }
  | { readonly kind: 'skip' }
  | { readonly kind: 'fallback'; readonly outputs: Readonly<Record<string, unknown>> };

/** The settings a node takes from `defaults:` unless it sets its own. */
export interface NodePolicies {
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly onError: ErrorPolicy;
  readonly concurrency: number;
}

/** Built-in defaults: 30 s per attempt, no retry, fail the workflow, 32 forEach calls at once. */
export const BUILT_IN_POLICIES: NodePolicies = {
  timeoutMs: 30_000,
  retry: { attempts: 1, backoffMs: 0 },
  onError: { kind: 'fail' },
  concurrency: 32,
};
