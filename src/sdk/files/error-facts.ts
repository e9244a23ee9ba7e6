// Errors raised by Node's own modules may come from another realm (test sandboxes, workers), so
// these checks look at the shape of the value instead of using `instanceof Error`.

function field(error: unknown, key: 'code' | 'message'): string | undefined {
  if (typeof error !== 'object' || error === null || !(key in error)) return undefined;
  const value = (error as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** The `code` of a Node.js system error (`ENOENT`, `EEXIST`, `Z_DATA_ERROR`, …), or undefined. */
export function nodeErrorCode(error: unknown): string | undefined {
  return field(error, 'code');
}

/** The message of anything thrown, for embedding in a sentence. */
export function errorMessage(error: unknown): string {
  return field(error, 'message') ?? String(error);
}
