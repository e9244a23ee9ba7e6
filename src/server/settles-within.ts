import { setLongTimeout } from '../timers/long-timeout.js';

/**
 * True once `work` settles (resolved or rejected) within `ms`, false when `ms` pass first. The timer keeps
 * the process alive while it waits: the bound is what ends a wait on something that holds no other handle.
 * `work` is not awaited beyond the bound; a caller that goes on without it must observe its rejection.
 */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: { clear(): void } | undefined;
  const expiry = new Promise<false>((resolve) => {
    timer = setLongTimeout(() => {
      resolve(false);
    }, Math.max(0, ms));
  });
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  return Promise.race([settled, expiry]).finally(() => timer?.clear());
}
