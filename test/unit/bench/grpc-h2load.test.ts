import { describe, expect, it } from '@jest/globals';
import { h2loadVersion, latenciesOfH2loadLog, parseH2loadSummary } from '../../../bench/grpc-h2load.js';

/** h2load 1.52's stdout for a timing-based run against a Sluice gRPC port. */
const OUTPUT = `starting benchmark...
spawning thread #0: 1 total client(s). Timing-based test with 0s of warm-up time and 3s of main duration for measurements.
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 3.00s, 6480.50 req/s, 101.99KB/s
requests: 19442 total, 19450 started, 19441 done, 19400 succeeded, 41 failed, 12 errored, 3 timeout
status codes: 19400 2xx, 0 3xx, 0 4xx, 29 5xx
traffic: 305.98KB (313319) total, 160.71KB (164564) headers (space savings 97.02%), 0B (0) data
                     min         max         mean         sd        +/- sd
time for request:      775us    390.93ms      2.41ms     15.15ms    99.26%
`;

describe('parseH2loadSummary', () => {
  it('reads the rate and the request counts of the summary', () => {
    expect(parseH2loadSummary(OUTPUT)).toEqual({ requestsPerSecond: 6480.5, done: 19441, succeeded: 19400, failed: 41, errored: 12, timeout: 3 });
  });

  it('reads a run that finished in milliseconds', () => {
    const output = OUTPUT.replace('finished in 3.00s', 'finished in 812.34ms');
    expect(parseH2loadSummary(output).requestsPerSecond).toBe(6480.5);
  });

  it('throws, quoting the output, when there is no summary', () => {
    expect(() => parseH2loadSummary('connect to 127.0.0.1 port 1 failed: Connection refused')).toThrow('h2load printed no summary:\nconnect to 127.0.0.1 port 1 failed: Connection refused');
  });
});

describe('latenciesOfH2loadLog', () => {
  it('keeps the times of requests answered 200, in milliseconds, and leaves failed streams out', () => {
    const log = ['1796451823332780\t200\t1500', '1796451823332782\t-1\t90000', '1796451823332783\t200\t2500', '1796451823332784\t503\t100', ''].join('\n');
    const samples = latenciesOfH2loadLog(log);
    expect([...samples.sorted()]).toEqual([1.5, 2.5]);
  });
});

describe('h2loadVersion', () => {
  it('is undefined when the command cannot be run', () => {
    expect(h2loadVersion('sluice-no-such-h2load')).toBeUndefined();
  });
});
