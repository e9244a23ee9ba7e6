/**
 * The most workers (instances) a model version may have: the bound of `workers.min` and `workers.max` in
 * `model.yaml` and of the management APIs' `initial_workers`, `min_worker` and `max_worker`. Instances start
 * on the event loop, so the core holds every other source of a count (a snapshot, a TorchServe workflow
 * spec, an embedder's call) to it too.
 */
export const MAX_WORKERS = 256;

/** The first of `counts` (named as the caller's source names them) above {@link MAX_WORKERS}, or undefined. */
export function workerCountOverLimit(counts: Readonly<Record<string, number | undefined>>): { readonly key: string; readonly count: number } | undefined {
  for (const [key, count] of Object.entries(counts)) if (count !== undefined && count > MAX_WORKERS) return { key, count };
  return undefined;
}
