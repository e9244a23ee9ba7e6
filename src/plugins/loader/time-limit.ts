/**
 * Settles as `work` does, or rejects with `timeoutError()` once `ms` have passed first. The timer keeps
 * the process alive while it waits, so a promise nothing will ever settle ends in that error instead of
 * the process running out of work (Node's silent exit status 13) or waiting forever.
 */
export function withinTimeLimit<T>(work: Promise<T>, ms: number, timeoutError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(timeoutError());
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => {
    clearTimeout(timer);
  });
}
