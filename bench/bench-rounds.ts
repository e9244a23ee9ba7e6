/**
 * Rounds of a comparison benchmark: every setup runs once per round, in alternating order (forward, then
 * backward), so that a drift in what else the machine does weighs on every setup alike; figures are
 * medians over the rounds.
 */

/** The order of `steps` in round `round` (0-based): as given in even rounds, reversed in odd ones. */
export function roundOrder<T>(steps: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...steps] : [...steps].reverse();
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** The run of a round whose throughput is the median one (the lower middle for an even count). */
export function medianRun<T extends { readonly requestsPerSecond: number }>(runs: readonly T[]): T | undefined {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
