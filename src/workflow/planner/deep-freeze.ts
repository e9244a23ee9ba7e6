/**
 * Freezes `value` and everything reachable from it, so that a plan cannot change. Typed arrays cannot
 * be frozen and are left as they are; functions are not walked.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
