/** Where a run's deadline comes from: the request, the workflow file's `responseTimeoutMs`, or the server's default. */
export type RunDeadlineSource = 'request' | 'workflow' | 'server';

/** When a run must have ended: milliseconds from its start, and the limit that set them. */
export interface RunDeadline {
  readonly timeoutMs: number;
  readonly source: RunDeadlineSource;
}

/**
 * The deadline of one run: the workflow's own `responseTimeoutMs` (`declared`), or the server's default
 * when the file sets none, shortened by the request's deadline when that comes first (a tie is the
 * request's). Undefined when nothing bounds the run.
 */
export function runDeadline(declared: number | undefined, serverDefault: number | undefined, requestMs: number | undefined): RunDeadline | undefined {
  const limit: RunDeadline | undefined =
    declared !== undefined ? { timeoutMs: declared, source: 'workflow' } : serverDefault !== undefined ? { timeoutMs: serverDefault, source: 'server' } : undefined;
  if (requestMs === undefined) return limit;
  return limit !== undefined && limit.timeoutMs < requestMs ? limit : { timeoutMs: requestMs, source: 'request' };
}
