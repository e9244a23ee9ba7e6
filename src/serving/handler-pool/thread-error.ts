import { ERROR_CODES, SluiceError, type ErrorCode, type ErrorDetails } from '../../sdk/errors/index.js';
import type { ThreadError } from './handler-task.js';

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

function jsonSafe(details: unknown): ErrorDetails {
  try {
    return JSON.parse(JSON.stringify(details ?? {})) as ErrorDetails;
  } catch {
    return {};
  }
}

/**
 * Turns what a handler threw on a worker thread into plain data. A plugin may bundle its own copy of the
 * SDK, so a `SluiceError` is recognised by its name and a known code rather than by its class.
 */
export function toThreadError(error: unknown): ThreadError {
  if (error instanceof Error) {
    const { code, details } = error as Error & { code?: unknown; details?: unknown };
    if (error.name === 'SluiceError' && isErrorCode(code)) return { kind: 'sluice', code, message: error.message, details: jsonSafe(details) };
    return {
      kind: 'error',
      name: error.name,
      message: error.message,
      ...(error.stack === undefined ? {} : { stack: error.stack }),
      ...(isErrorCode(code) ? { code } : {}),
    };
  }
  return { kind: 'error', name: 'Error', message: String(error) };
}

/**
 * The error again, on the main thread: a `SluiceError` with its code, or an `Error` with the thread's
 * message, stack and Sluice `code`, so that it is reported exactly as if thrown on the event loop.
 */
export function fromThreadError(error: ThreadError): Error {
  if (error.kind === 'sluice') return new SluiceError(error.code, error.message, error.details);
  const revived: Error & { code?: ErrorCode } = new Error(error.message);
  revived.name = error.name;
  if (error.stack !== undefined) revived.stack = error.stack;
  if (error.code !== undefined) revived.code = error.code;
  return revived;
}
