import type { RequestBudget } from '../../budget/request-budget.js';

/** Where a run's deadline comes from: the request, the workflow file's `responseTimeoutMs`, or the server's default. */
export type RunDeadlineSource = 'request' | 'workflow' | 'server';

/** When a run must have ended, and the limit that set it. */
export interface RunDeadline {
  /** The limit in milliseconds, as messages name it: the workflow's or the server's, or the request's own timeout as asked. */
  readonly timeoutMs: number;
  readonly source: RunDeadlineSource;
  /** Milliseconds from the start of the run to the deadline. */
  readonly waitMs: number;
}

/**
 * The request's limit on a run starting at `now`: the earlier of its budget's hard deadline and its own
 * timeout. Named by the own timeout as it was asked when that is the earlier (a header's 50 ms is "50
 * ms"), else by the milliseconds left. Undefined when the budget sets neither.
 */
function requestLimit(budget: RequestBudget | undefined, now: number): RunDeadline | undefined {
  if (budget === undefined) return undefined;
  const due = budget.due;
  if (due === Infinity) return undefined;
  const waitMs = Math.max(0, due - now);
  const asked = budget.timeoutMs !== undefined && budget.timeoutAt <= budget.deadline ? budget.timeoutMs : Math.round(waitMs);
  return { timeoutMs: asked, source: 'request', waitMs };
}

/**
 * The deadline of one run starting at `now`: the workflow's own `responseTimeoutMs` (`declared`), or the
 * server's default when the file sets none, brought forward by the request's budget when that comes
 * first (a tie is the request's). Undefined when nothing bounds the run.
 */
export function runDeadline(declared: number | undefined, serverDefault: number | undefined, budget: RequestBudget | undefined, now = performance.now()): RunDeadline | undefined {
  const limit: RunDeadline | undefined =
    declared !== undefined
      ? { timeoutMs: declared, source: 'workflow', waitMs: declared }
      : serverDefault !== undefined
        ? { timeoutMs: serverDefault, source: 'server', waitMs: serverDefault }
        : undefined;
  const request = requestLimit(budget, now);
  if (request === undefined) return limit;
  return limit !== undefined && limit.waitMs < request.waitMs ? limit : request;
}
