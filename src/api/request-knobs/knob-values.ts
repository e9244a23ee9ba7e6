import { SluiceError } from '../../sdk/errors/index.js';
import { RequestBudget, type Cancellation } from '../../budget/request-budget.js';

/** Header (HTTP) or metadata entry (gRPC) giving a request's priority level (1 = highest). */
export const PRIORITY_HEADER = 'x-sluice-priority';
/** Header (HTTP) or metadata entry (gRPC) giving a request's own timeout in milliseconds. */
export const TIMEOUT_HEADER = 'x-sluice-timeout-ms';

/** A knob's value (a number, or digits as text) as an integer of at least `min`; undefined when absent. */
export function positiveInteger(value: unknown, what: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min) {
    // String() for numbers: JSON.stringify would show an infinity (JSON's 1e400) as null.
    const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
    // A whole number too large to hold exactly is an integer of at least `min`: say what the bound is.
    const tooLarge = typeof number === 'number' && Number.isInteger(number) && number > Number.MAX_SAFE_INTEGER;
    const rule = tooLarge ? `at most ${Number.MAX_SAFE_INTEGER}` : `an integer of at least ${min}`;
    throw new SluiceError('SLUICE_REQUEST_INVALID', `${what} must be ${rule}, got ${shown}`);
  }
  return number;
}

/** `priority` and `timeout` (microseconds, as Triton reads it) from OIP request parameters. */
export function oipParameterKnobs(parameters: Readonly<Record<string, unknown>>): { priority?: number; timeoutMs?: number } {
  const priority = positiveInteger(parameters['priority'], 'parameters.priority', 1);
  const timeoutUs = positiveInteger(parameters['timeout'], 'parameters.timeout (microseconds)', 1);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutUs !== undefined ? { timeoutMs: timeoutUs / 1000 } : {}),
  };
}

/** Where a transport carries the knobs: HTTP headers or gRPC metadata, as refusals name them. */
export type KnobCarrier = 'header' | 'metadata';

/**
 * A request's budget from its transport's edge: `x-sluice-priority` and `x-sluice-timeout-ms` (header or
 * metadata text, refused with `SLUICE_REQUEST_INVALID` when not a positive integer), the client's own
 * deadline (`deadlineMs` from now, a gRPC deadline) and how the transport tells that the client left.
 */
export function budgetOfKnobs(
  knobs: { readonly priority: unknown; readonly timeout: unknown },
  carrier: KnobCarrier,
  edge: { readonly deadlineMs?: number | undefined; readonly cancellation: Cancellation },
): RequestBudget {
  const priority = positiveInteger(knobs.priority, `the ${PRIORITY_HEADER} ${carrier}`, 1);
  const timeoutMs = positiveInteger(knobs.timeout, `the ${TIMEOUT_HEADER} ${carrier}`, 1);
  return RequestBudget.of({ priority, timeoutMs, deadlineMs: edge.deadlineMs, cancellation: edge.cancellation });
}

/**
 * `budget` with what OIP request `parameters` ask, the same on every transport: the smaller of the own
 * timeouts wins (the header's or metadata's, and `parameters.timeout`), and `parameters.priority`
 * replaces the edge's priority.
 */
export function withOipParameters(budget: RequestBudget, parameters: Readonly<Record<string, unknown>>): RequestBudget {
  const { timeoutMs, priority } = oipParameterKnobs(parameters);
  return budget.narrowed(timeoutMs, priority);
}
