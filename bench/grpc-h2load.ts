import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameMessage } from '../src/api/grpc/transport/grpc-message-decoder.js';
import { spawnTracked } from './child-processes.js';
import { LatencySamples } from './latency-samples.js';
import type { LoadMeasurement } from './load.js';

/** One gRPC load run: a unary method called with the same request, `concurrency` calls in flight. */
export interface GrpcLoadSpec {
  /** `host:port`. */
  readonly address: string;
  /** `/package.Service/Method`. */
  readonly path: string;
  /** The request message, serialized. */
  readonly message: Uint8Array;
  readonly concurrency: number;
  readonly durationSeconds: number;
}

/** How to get h2load where it is missing. */
export const H2LOAD_INSTALL_HINT = 'h2load (from nghttp2) is not installed: apt-get install nghttp2-client (Debian, Ubuntu), dnf install nghttp2 (Fedora), brew install nghttp2 (macOS)';

/** The first line of `h2load --version` (`h2load nghttp2/1.52.0`); undefined when `command` cannot be run. */
export function h2loadVersion(command = 'h2load'): string | undefined {
  const result = spawnSync(command, ['--version'], { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) return undefined;
  return result.stdout.split('\n')[0]?.trim();
}

/** What h2load's summary says of a run. */
export interface H2loadSummary {
  /** Requests per second over the measured duration. */
  readonly requestsPerSecond: number;
  readonly done: number;
  /** Requests answered with HTTP 2xx or 3xx: h2load does not read `grpc-status`. */
  readonly succeeded: number;
  /** Requests that failed, with another HTTP status or none: `errored` included. */
  readonly failed: number;
  /** Requests that failed without an HTTP status (a reset stream, a lost connection): `timeout` included. */
  readonly errored: number;
  readonly timeout: number;
}

const FINISHED = /^finished in [\d.]+m?s, ([\d.]+) req\/s/m;
const REQUESTS = /^requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout$/m;

/** Reads the summary h2load prints on stdout; throws, quoting the output, when it is not there. */
export function parseH2loadSummary(output: string): H2loadSummary {
  const finished = FINISHED.exec(output);
  const requests = REQUESTS.exec(output);
  if (finished === null || requests === null) throw new Error(`h2load printed no summary:\n${output.slice(-2000)}`);
  const [, done = '', succeeded = '', failed = '', errored = '', timeout = ''] = requests;
  return { requestsPerSecond: Number(finished[1]), done: Number(done), succeeded: Number(succeeded), failed: Number(failed), errored: Number(errored), timeout: Number(timeout) };
}

/**
 * The response times of h2load's `--log-file` (a line per request: start time in µs since the epoch, HTTP
 * status or -1 for a failed stream, µs until the end of the response), in milliseconds, for the requests
 * answered with HTTP 200.
 */
export function latenciesOfH2loadLog(log: string): LatencySamples {
  const samples = new LatencySamples();
  for (const line of log.split('\n')) {
    const [, statusCode, micros] = line.split('\t');
    if (statusCode === '200' && micros !== undefined) samples.record(Number(micros) / 1000);
  }
  return samples;
}

/**
 * Drives `spec` with h2load over one HTTP/2 connection (gRPC clients multiplex their calls on one), with
 * `concurrency` streams in flight, for `durationSeconds`: a POST of the length-prefixed message with
 * `content-type: application/grpc` and `te: trailers`. h2load counts HTTP statuses: a gRPC call that
 * fails is an HTTP 200 with `grpc-status` in its trailers, which h2load counts as a success. The caller
 * checks the calls' outcomes another way (the server's own counters, a gRPC client's calls).
 */
export async function runGrpcH2load(spec: GrpcLoadSpec): Promise<LoadMeasurement> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-h2load-'));
  try {
    const body = join(dir, 'request.grpc');
    const log = join(dir, 'requests.log');
    await writeFile(body, frameMessage(spec.message));
    const args = ['-c', '1', '-t', '1', '-m', String(spec.concurrency), '-D', String(spec.durationSeconds), '-d', body];
    args.push('-H', 'content-type: application/grpc', '-H', 'te: trailers', '--log-file', log, `http://${spec.address}${spec.path}`);
    const child = spawnTracked('h2load', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`h2load exited with ${String(code)}:\n${output.slice(-2000)}`);
    const summary = parseH2loadSummary(output);
    const samples = latenciesOfH2loadLog(await readFile(log, 'utf8'));
    return {
      durationSeconds: summary.requestsPerSecond > 0 ? summary.done / summary.requestsPerSecond : spec.durationSeconds,
      ok: summary.succeeded,
      requestsPerSecond: summary.requestsPerSecond * (summary.done > 0 ? summary.succeeded / summary.done : 0),
      non2xx: summary.failed - summary.errored,
      errors: summary.errored,
      timeouts: summary.timeout,
      ...samples.summary(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
