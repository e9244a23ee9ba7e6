import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { stallingHandler, type StallBody } from '../support/handlers/stalling-handler.js';
import { requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const RESPONSE_TIMEOUT_MS = 300;
const LABELS = '{model_name="failing",model_version="1.0"}';
const SERIES = [
  `ts_inference_requests_total${LABELS}`,
  `sluice_inference_failures_total${LABELS}`,
  `sluice_inference_request_duration_seconds_count${LABELS}`,
  `sluice_queue_duration_seconds_count${LABELS}`,
] as const;

/** The four series of the model, read from the metrics page (0 for one not on it yet). */
type Counts = Record<(typeof SERIES)[number], number>;

/**
 * A request that fails in its model's handler is a request of that model that failed: it counts in the
 * model's request, failure and latency series, not only in `sluice_errors_total`.
 */
describe('per-model series of requests that fail in their handler', () => {
  let t: TestServer;
  let before: Counts;
  const predict = (body: StallBody | readonly number[]): Promise<JsonAnswer> => requestJson(`${t.inference}/predictions/failing`, { method: 'POST', json: body });
  const counts = async (): Promise<Counts> => {
    const page = await (await fetch(`${t.metrics}/metrics`)).text();
    const read = (series: string): number => {
      const line = page.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    return Object.fromEntries(SERIES.map((series) => [series, read(series)])) as Counts;
  };
  /** How much each series grew since `before`. */
  const grown = async (): Promise<number[]> => {
    const now = await counts();
    return SERIES.map((series) => now[series] - before[series]);
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      handlers: [stallingHandler()],
      prepare: async (store) => {
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        await cp(join(store, 'iris'), join(store, 'failing'), { recursive: true });
        const own = manifest.replace('name: iris', 'name: failing').replace('handler: classifier', 'handler: stalling');
        await writeFile(join(store, 'failing', 'model.yaml'), `${own}responseTimeoutMs: ${RESPONSE_TIMEOUT_MS}\n`);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    before = await counts();
  });

  it('counts a request answered, with its queue time', async () => {
    expect(await predict({ features: SETOSA })).toMatchObject({ status: 200 });
    // requests, failures, latency observations, queue-time observations
    expect(await grown()).toEqual([1, 0, 1, 1]);
  });

  it('counts a request whose preprocess fails as a failed request, with no queue time', async () => {
    expect(await predict({ features: SETOSA, stall: 'preprocess', settleAfterMs: 0, settleWith: 'error' })).toMatchObject({ status: 500, body: { errorCode: 'SLUICE_HANDLER_FAILED' } });
    expect(await grown()).toEqual([1, 1, 1, 0]);
  });

  it('counts a request whose postprocess fails as a failed request, with the queue time of its run', async () => {
    expect(await predict({ features: SETOSA, stall: 'postprocess', settleAfterMs: 0, settleWith: 'error' })).toMatchObject({ status: 500, body: { errorCode: 'SLUICE_HANDLER_FAILED' } });
    expect(await grown()).toEqual([1, 1, 1, 1]);
  });

  it('counts a request whose handler stage outlives the response timeout as a failed request', async () => {
    expect(await predict({ features: SETOSA, stall: 'preprocess' })).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    expect(await grown()).toEqual([1, 1, 1, 0]);
  });

  it('counts a stage that fails after its request timed out once', async () => {
    expect(await predict({ features: SETOSA, stall: 'postprocess', settleAfterMs: RESPONSE_TIMEOUT_MS + 100, settleWith: 'error' })).toMatchObject({ status: 504 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await grown()).toEqual([1, 1, 1, 1]);
  });

  it('does not count a request whose handler made tensors the model refuses as the client\'s fault', async () => {
    expect(await predict({ features: [1, 2, 3] })).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' } });
    expect(await grown()).toEqual([0, 0, 0, 0]);
  });

  it('does not count a tensor request refused for a priority the model does not have', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/failing/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: SETOSA }], parameters: { priority: 9 } },
    });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_INVALID', error: expect.stringContaining('priority 9 is out of range') as unknown } });
    expect(await grown()).toEqual([0, 0, 0, 0]);
  });

  it('counts a tensor request answered', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/failing/infer`, { method: 'POST', json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: SETOSA }] } });
    expect(answer).toMatchObject({ status: 200 });
    expect(await grown()).toEqual([1, 0, 1, 1]);
  });
});
