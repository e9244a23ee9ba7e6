import autocannon from 'autocannon';
import { LatencySamples, type LatencySummary } from './latency-samples.js';
import { type BenchRequest } from './request-bodies.js';

/** One load run: what to send, to where, how hard and for how long. */
export interface LoadSpec {
  readonly baseUrl: string;
  readonly request: BenchRequest;
  readonly connections: number;
  readonly durationSeconds: number;
}

/** What a load run measured. */
export interface LoadMeasurement extends LatencySummary {
  readonly durationSeconds: number;
  /** 2xx responses. */
  readonly ok: number;
  /** 2xx responses per second of the run. */
  readonly requestsPerSecond: number;
  readonly non2xx: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  readonly errors: number;
  readonly timeouts: number;
}

/**
 * Drives `spec` with autocannon (in this process) and measures it. Latencies come from autocannon's
 * `response` event, which carries each response time in fractional milliseconds; its own percentiles
 * are whole milliseconds. Only 2xx responses count towards throughput and latency.
 */
export function runLoad(spec: LoadSpec): Promise<LoadMeasurement> {
  const samples = new LatencySamples();
  let ok = 0;
  let non2xx = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.baseUrl + spec.request.path,
        method: 'POST',
        headers: { ...spec.request.headers },
        body: spec.request.body,
        connections: spec.connections,
        duration: spec.durationSeconds,
        timeout: 10,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error !== null && error !== undefined) {
          reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
          return;
        }
        const durationSeconds = (performance.now() - started) / 1000;
        resolve({
          durationSeconds,
          ok,
          requestsPerSecond: ok / durationSeconds,
          non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          ...samples.summary(),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        samples.record(responseTime);
      } else {
        non2xx++;
      }
    });
  });
}
