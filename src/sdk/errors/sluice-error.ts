import type { ErrorCategory } from './error-category.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** Structured, JSON-safe extra facts about an error (expected vs. got, the offending key, …). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The one error type Sluice raises on purpose. `code` is stable and documented in `docs/errors.md`;
 * `message` says what went wrong and what to do about it.
 */
export class SluiceError extends Error {
  override readonly name = 'SluiceError';
  readonly category: ErrorCategory;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.category = ERROR_CODES[code].category;
  }
}

/** True when `value` is a {@link SluiceError}, optionally with the given code. */
export function isSluiceError(value: unknown, code?: ErrorCode): value is SluiceError {
  return value instanceof SluiceError && (code === undefined || value.code === code);
}
