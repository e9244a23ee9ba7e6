import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { OCR_SAMPLE_LINES, OCR_SAMPLE_PAGE } from '../../scripts/ocr-sample-page.js';
import { renderTextPng } from '../support/ocr/text-image.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { copyExampleWorkflows } from '../support/workflows/workflow-store.js';

const LINES = ['HELLO 2024', 'Sluice reads text'];

/** Sends `png` to the ocr workflow of `t`. */
function readImage(t: TestServer, png: Uint8Array, query = ''): ReturnType<typeof requestJson> {
  return requestJson(`${t.inference}/wfpredict/ocr${query}`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: png });
}

/** Requests per batch of the recogniser's last runs. */
async function recentBatchSizes(t: TestServer): Promise<number[]> {
  const { body } = await requestJson(`${t.management}/models/ppocr-rec`);
  return (body as { recentBatchSizes: number[] }[])[0]?.recentBatchSizes ?? [];
}

describe('the ocr workflow over HTTP', () => {
  let t: TestServer;
  let png: Buffer;
  const read = (query = ''): ReturnType<typeof requestJson> => readImage(t, png, query);

  beforeAll(async () => {
    png = await renderTextPng(LINES);
    t = await startTestServer({ demoModels: ['ppocr-det', 'ppocr-rec'], prepare: (_store, dir) => copyExampleWorkflows(dir, ['ocr.yaml']) });
  });
  afterAll(() => t.close());

  it('reads the text of a PNG sent as the body', async () => {
    const { status, body } = await read();
    expect(status).toBe(200);
    expect(body).toMatchObject({ text: 'HELLO 2024\nSluice reads text', lines: LINES });
  });

  it('reads the sample page of examples/ocr/ line for line', async () => {
    const page = await readFile(join(packageRoot(), OCR_SAMPLE_PAGE));
    expect(await readImage(t, page)).toMatchObject({ status: 200, body: { text: OCR_SAMPLE_LINES.join('\n'), lines: OCR_SAMPLE_LINES } });
  });

  it('answers the sample page as docs/workflows.md shows', async () => {
    const doc = await readFile(join(packageRoot(), 'docs', 'workflows.md'), 'utf8');
    const shown = /--data-binary @examples\/ocr\/page\.png\n```[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    const page = await readFile(join(packageRoot(), OCR_SAMPLE_PAGE));
    expect(await readImage(t, page)).toEqual(expect.objectContaining({ status: 200, body: JSON.parse(shown ?? 'null') as unknown }));
  });

  it('boxes every line it read', async () => {
    const { body } = await read();
    expect((body as { boxes: unknown[] }).boxes).toEqual([expect.any(Array), expect.any(Array)]);
  });

  it('reads each line with its own recogniser call', async () => {
    expect(await read('?debug=true')).toMatchObject({ status: 200, body: { debug: { nodes: { read: { status: 'ok', calls: 2 } } } } });
  });

  it('recognises the lines of one image in one batch: ceil(2 lines / maxBatchSize 16) = 1 run', async () => {
    const before = await recentBatchSizes(t);
    await read();
    expect((await recentBatchSizes(t)).slice(before.length)).toEqual([2]);
  });

  it('counts that run in sluice_batch_size', async () => {
    const metric = async (): Promise<string> => {
      const res = await fetch(`${t.metrics}/metrics`);
      return (await res.text())
        .split('\n')
        .filter((line) => /^sluice_batch_size_(count|sum)\{.*model_name="ppocr-rec"/.test(line))
        .join('\n');
    };
    const count = (text: string, series: 'count' | 'sum'): number => Number(new RegExp(`sluice_batch_size_${series}\\{[^}]*\\} (\\S+)`).exec(text)?.[1] ?? 0);
    const before = await metric();
    await read();
    const after = await metric();
    expect([count(after, 'count') - count(before, 'count'), count(after, 'sum') - count(before, 'sum')]).toEqual([1, 2]);
  });
});

describe('the ocr workflow with a recogniser of maxBatchSize 2', () => {
  let t: TestServer;
  const lines = ['HELLO 2024', 'Sluice reads text', 'Batches of two'];

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['ppocr-det', 'ppocr-rec'],
      prepare: async (store, dir) => {
        const manifest = join(store, 'ppocr-rec', 'model.yaml');
        await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('maxBatchSize: 16', 'maxBatchSize: 2'));
        await copyExampleWorkflows(dir, ['ocr.yaml']);
      },
    });
  });
  afterAll(() => t.close());

  let png: Buffer;

  beforeAll(async () => {
    png = await renderTextPng(lines);
  });

  it('reads all three lines', async () => {
    expect(await readImage(t, png)).toMatchObject({ status: 200, body: { lines } });
  });

  it('reads 3 lines in ceil(3 / 2) = 2 recogniser runs', async () => {
    const before = await recentBatchSizes(t);
    await readImage(t, png);
    expect((await recentBatchSizes(t)).slice(before.length)).toEqual([2, 1]);
  });
});
