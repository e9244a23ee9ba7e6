import autocannon from 'autocannon';

/** One measured load run. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** What to send. */
export interface LoadSpec {
  readonly url: string;
  readonly body: string;
  readonly connections: number;
  readonly durationSeconds: number;
}

/** Drives `spec.url` with autocannon (POST, JSON body) and summarises the run. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: spec.body,
    connections: spec.connections,
    duration: spec.durationSeconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
