import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';
import { OCR_SAMPLE_LINES, OCR_SAMPLE_PAGE } from '../../scripts/ocr-sample-page.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { copyExampleWorkflows, writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** One Server-Sent Event, its data parsed. */
interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

function parseEvent(block: string): StreamEvent {
  const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
  return { event: String(fields['event']), data: JSON.parse(String(fields['data'])) as unknown };
}

/**
 * POSTs `png` as `curl -N -H 'Accept: text/event-stream' --data-binary @page.png` does and hands each event
 * to `onEvent` as it arrives; `onEvent` returning true leaves (closes the connection). Resolves with the
 * events received.
 */
function streamPage(url: string, png: Uint8Array, onEvent: (event: StreamEvent) => boolean = () => false): Promise<StreamEvent[]> {
  return new Promise((resolve, reject) => {
    const received: StreamEvent[] = [];
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'image/png', 'content-length': String(png.byteLength), accept: 'text/event-stream' } }, (response) => {
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        pending += chunk;
        let end = pending.indexOf('\n\n');
        while (end >= 0) {
          const event = parseEvent(pending.slice(0, end));
          pending = pending.slice(end + 2);
          received.push(event);
          if (onEvent(event)) {
            request.destroy();
            resolve(received);
            return;
          }
          end = pending.indexOf('\n\n');
        }
      });
      response.on('end', () => {
        resolve(received);
      });
      response.on('error', reject);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    request.end(png);
  });
}

describe('the ocr-stream workflow streams each line’s text as it is read', () => {
  let t: TestServer;
  let page: Buffer;

  beforeAll(async () => {
    page = await readFile(join(packageRoot(), OCR_SAMPLE_PAGE));
    t = await startTestServer({ demoModels: ['ppocr-det', 'ppocr-rec'], prepare: (_store, dir) => copyExampleWorkflows(dir, ['ocr-line.yaml', 'ocr-stream.yaml']) });
  });
  afterAll(() => t.close());

  it('sends one progress event per line of the sample page, in reading order, with its text, then the result', async () => {
    const received = await streamPage(`${t.inference}/wfpredict/ocr-stream`, page);
    expect(received).toEqual([
      ...OCR_SAMPLE_LINES.map((text, index) => ({ event: 'progress', data: { node: 'line', index, count: OCR_SAMPLE_LINES.length, outputs: { text } } })),
      { event: 'result', data: { lines: OCR_SAMPLE_LINES, boxes: [expect.any(Array), expect.any(Array), expect.any(Array)] } },
    ]);
  });

  it('sends every node as it settles with ?progress=nodes: detect-prep, detect and crop, then each line, then line with every line’s text', async () => {
    const received = await streamPage(`${t.inference}/wfpredict/ocr-stream?progress=nodes`, page);
    expect(received.map(({ event, data }) => [event, (data as { node?: string }).node])).toEqual([
      ['node', 'detect-prep'],
      ['node', 'detect'],
      ['node', 'crop'],
      ['progress', 'line'],
      ['progress', 'line'],
      ['progress', 'line'],
      ['node', 'line'],
      ['result', undefined],
    ]);
    expect(received[6]?.data).toEqual({ node: 'line', status: 'ok', outputs: { text: OCR_SAMPLE_LINES } });
  });
});

describe('a client that leaves the ocr-stream workflow mid-stream', () => {
  /** What each per-line call of the gate saw: `passed` (let through at once) or `cancelled`. */
  const calls: string[] = [];
  let cancelled: () => void = () => undefined;
  const sawCancel = new Promise<void>((resolve) => {
    cancelled = resolve;
  });
  /** Lets the first line through; holds every later one until its run is cancelled. */
  const GATE: NodeHandler = {
    name: 'test/line-gate',
    inputs: ['text'],
    outputs: { text: {} },
    run: (inputs, context) => {
      if (calls.length === 0) {
        calls.push('passed');
        return Promise.resolve({ text: inputs['text'] });
      }
      calls.push('held');
      return new Promise((_resolve, reject) => {
        context.signal.addEventListener('abort', () => {
          calls.push('cancelled');
          cancelled();
          reject(new Error('cancelled'));
        }, { once: true });
      });
    },
  };
  // ocr-stream as shipped, over a per-line workflow that reads and decodes as ocr-line does, then passes the gate.
  const GATED_LINE = (ocrLine: string): string =>
    ocrLine.replace('outputs:\n  text: decode.text', '  gate: { handler: test/line-gate, inputs: { text: decode.text } }\noutputs:\n  text: gate.text');
  let t: TestServer;
  let page: Buffer;

  beforeAll(async () => {
    page = await readFile(join(packageRoot(), OCR_SAMPLE_PAGE));
    const ocrLine = await readFile(join(packageRoot(), 'workflows', 'ocr-line.yaml'), 'utf8');
    t = await startTestServer({
      demoModels: ['ppocr-det', 'ppocr-rec'],
      nodeHandlers: [GATE],
      prepare: async (_store, dir) => {
        await copyExampleWorkflows(dir, ['ocr-stream.yaml']);
        await writeWorkflowFile(dir, 'ocr-line.yaml', GATED_LINE(ocrLine));
      },
    });
  });
  afterAll(() => t.close());

  it('cancels the line being read and never reads the lines after it', async () => {
    const received = await streamPage(`${t.inference}/wfpredict/ocr-stream`, page, (event) => event.event === 'progress');
    expect(received).toEqual([{ event: 'progress', data: { node: 'line', index: 0, count: 3, outputs: { text: OCR_SAMPLE_LINES[0] } } }]);
    await sawCancel;
    expect(calls).toEqual(['passed', 'held', 'cancelled']);
  });
});
