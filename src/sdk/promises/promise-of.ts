/**
 * What `make` returns, as a promise: a synchronous throw becomes a rejection (with an `Error`, whatever
 * was thrown), so that callers handle one way of failing. For contracts that return a promise but whose
 * work is synchronous: unlike an `async` function returning a promise, this makes no promise of its own.
 */
export function promiseOf<T>(make: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(make());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
