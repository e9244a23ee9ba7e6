/**
 * Calls `call` for every element of `items`, at most `limit` at a time, and resolves with the results
 * in the order of `items` (not the order they finish in). The first failure rejects at once and
 * starts no further calls; the caller cancels the ones in flight.
 */
export function mapInOrder<T, R>(items: readonly T[], limit: number, call: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let finished = 0;
  let failed = false;
  return new Promise<R[]>((resolve, reject) => {
    const launch = (): void => {
      const index = next++;
      call(items[index] as T, index).then(
        (result) => {
          results[index] = result;
          finished += 1;
          if (finished === items.length) resolve(results);
          else if (!failed && next < items.length) launch();
        },
        (error: unknown) => {
          failed = true;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
    if (items.length === 0) resolve(results);
    while (next < Math.min(limit, items.length)) launch();
  });
}
