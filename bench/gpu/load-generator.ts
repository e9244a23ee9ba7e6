import { Agent, request } from 'node:http';
import type { BinaryRequest } from './oip-binary-request.js';

/** What one load run measured. Each request carries one image. */
export interface LoadRun {
  readonly concurrency: number;
  readonly seconds: number;
  readonly imagesPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly ok: number;
  readonly failed: number;
  /** Status and body of the first failure, to tell what went wrong. */
  readonly firstFailure?: string;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

function post(url: URL, agent: Agent, payload: BinaryRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': payload.body.byteLength,
          'inference-header-content-length': payload.headerLength,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ status, body: status === 200 ? '' : Buffer.concat(chunks).toString('utf8').slice(0, 500) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload.body);
  });
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Keeps `concurrency` requests in flight against `url` for `warmUpSeconds` (not counted), then for
 * `seconds`, over keep-alive connections; counts the answers that arrive inside the measured window.
 */
export async function driveLoad(url: string, payload: BinaryRequest, concurrency: number, seconds: number, warmUpSeconds: number): Promise<LoadRun> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const start = performance.now() + warmUpSeconds * 1000;
  const end = start + seconds * 1000;
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const sent = performance.now();
      let answer: Answer;
      try {
        answer = await post(target, agent, payload);
      } catch (error) {
        answer = { status: 0, body: error instanceof Error ? error.message : String(error) };
      }
      const done = performance.now();
      if (done < start || done > end) continue;
      if (answer.status === 200) {
        latencies.push(done - sent);
      } else {
        failed += 1;
        firstFailure ??= `${answer.status}: ${answer.body}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    concurrency,
    seconds,
    imagesPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    ok: latencies.length,
    failed,
    ...(firstFailure !== undefined ? { firstFailure } : {}),
  };
}
