/*
 * Node ids, input and output names come from workflow files and requests, and `__proto__`, `constructor`
 * or `toString` are valid names there. Plain objects would answer for such a name from their prototype
 * (or, for `__proto__`, take the value as their prototype), so records keyed by these names are read and
 * written through their own properties only.
 */

/** Whether `record` holds `key` itself, not through its prototype. */
export function hasOwnKey(record: object, key: string): boolean {
  return Object.hasOwn(record, key);
}

/** The value `record` holds under `key` itself; undefined for a key only its prototype has. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `record[key]` as an own property, `__proto__` included (an assignment would set the prototype). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
