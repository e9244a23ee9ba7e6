import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const HOST = `{Level="Host",Hostname="${hostname()}"}`;

function sample(page: string, series: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('TorchServe’s frontend and system metrics on /metrics', () => {
  let t: TestServer;
  const page = async (): Promise<string> => (await fetch(`${t.metrics}/metrics`)).text();

  beforeAll(async () => {
    t = await startTestServer();
    await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    await requestJson(`${t.inference}/predictions/nope`, { method: 'POST', json: [1] });
    await requestJson(`${t.management}/models?url=nope`, { method: 'POST' });
  });
  afterAll(() => t.close());

  it('counts answers by status class in Requests2XX, Requests4XX and Requests5XX, with TorchServe’s labels and no _total', async () => {
    const text = await page();
    expect(text).toContain('# TYPE Requests2XX counter');
    expect(sample(text, `Requests2XX${HOST}`)).toBeGreaterThanOrEqual(2);
    expect(sample(text, `Requests4XX${HOST}`)).toBe(2);
    expect(sample(text, `Requests5XX${HOST}`)).toBeUndefined();
  });

  it('reports the host’s CPU, memory and disk figures in TorchServe’s units', async () => {
    const text = await page();
    for (const percent of ['CPUUtilization', 'MemoryUtilization', 'DiskUtilization']) {
      expect(sample(text, `${percent}${HOST}`)).toEqual(expect.any(Number));
      expect(sample(text, `${percent}${HOST}`)).toBeGreaterThanOrEqual(0);
      expect(sample(text, `${percent}${HOST}`)).toBeLessThanOrEqual(100);
    }
    expect(sample(text, `MemoryUsed${HOST}`)).toBeGreaterThan(0);
    expect(sample(text, `MemoryAvailable${HOST}`)).toBeGreaterThan(0);
    expect(sample(text, `DiskUsage${HOST}`)).toBeGreaterThan(0);
    expect(sample(text, `DiskAvailable${HOST}`)).toBeGreaterThanOrEqual(0);
    expect(parsePrometheusText(text).get('MemoryUsed')?.type).toBe('gauge');
  });

  it('reports the latest request’s QueueTime and WorkerThreadTime, and each worker’s WorkerLoadTime', async () => {
    const text = await page();
    expect(sample(text, `QueueTime${HOST}`)).toBeGreaterThanOrEqual(0);
    expect(sample(text, `WorkerThreadTime${HOST}`)).toBeGreaterThan(0);
    expect(sample(text, `WorkerLoadTime{WorkerName="iris-1.0-1",Level="Host",Hostname="${hostname()}"}`)).toBeGreaterThanOrEqual(0);
  });

  it('shows no GPU figures while no model runs on a GPU', async () => {
    expect(await page()).not.toMatch(/^GPU/m);
  });

  it('keeps counting, and keeps the host figures on the page, once the last model is unregistered', async () => {
    for (const name of ['iris', 'mlp']) expect((await requestJson(`${t.management}/models/${name}`, { method: 'DELETE' })).status).toBe(200);
    const before = sample(await page(), `Requests2XX${HOST}`) ?? 0;
    await requestJson(`${t.management}/models`);
    const text = await page();
    expect(text).not.toContain('model_name=');
    expect(sample(text, `Requests2XX${HOST}`)).toBeGreaterThan(before);
    expect(sample(text, `MemoryUsed${HOST}`)).toBeGreaterThan(0);
    parsePrometheusText(text);
  });
});
