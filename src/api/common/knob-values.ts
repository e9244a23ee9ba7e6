import { SluiceError } from '../../common/errors/index.js';

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
