import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { memoryLogger, startTestServer, type TestServer } from '../support/test-server.js';
import { STREAMING_HANDLER, THREAD_STREAMING_HANDLER, type StreamBody, type StreamEnd } from '../support/handlers/streaming-handler.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';

/** `$request.tags ──▶ each (forEach: one call per tag) ──▶ tags` */
const TAGS_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tags, version: "1" }
inputs:
  tags: { type: list }
nodes:
  each: { handler: test/tag, forEach: $request.tags, inputs: { tag: $item } }
outputs:
  tags: each.tag
`;

/** `$request.word ──▶ first ──▶ second ──▶ word`, and `first ──▶ never (when false) ──▶ never` */
const STEPS_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: steps, version: "1" }
inputs:
  word: { type: string }
nodes:
  first: { handler: test/tag, inputs: { tag: $request.word } }
  second: { handler: test/tag, inputs: { tag: first.tag } }
  never: { handler: test/tag, when: "false", inputs: { tag: first.tag } }
outputs:
  word: second.tag
  never: never.tag
`;

/** `$request.word ──▶ call (workflow steps) ──▶ word`, and `wrap`, whose node `inner` runs `nested` in turn. */
const NESTED_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: nested, version: "1" }
inputs:
  word: { type: string }
nodes:
  call: { workflow: steps, inputs: { word: $request.word } }
outputs:
  word: call.word
`;
const WRAP_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: wrap, version: "1" }
inputs:
  word: { type: string }
nodes:
  inner: { workflow: nested, inputs: { word: $request.word } }
outputs:
  word: inner.word
`;

/** `$request.words ──▶ each (forEach: workflow nested, one call at a time) ──▶ words` */
const WRAP_EACH_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: wrap-each, version: "1" }
inputs:
  words: { type: list }
nodes:
  each: { workflow: nested, forEach: $request.words, concurrency: 1, inputs: { word: $item } }
outputs:
  words: each.word
`;

const TAG_HANDLER: NodeHandler = {
  name: 'test/tag',
  inputs: ['tag'],
  outputs: { tag: {} },
  run: (inputs) => Promise.resolve({ tag: inputs['tag'] }),
};

/** A whole answer as read off the wire. */
interface Streamed {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

function send(url: string, body: StreamBody | Record<string, unknown>, headers: Record<string, string> = {}): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const json = JSON.stringify(body);
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(json);
  });
}

/** Sends `body` and leaves (closes the connection) as soon as the first bytes of the answer arrive. */
function leaveAfterFirstChunk(url: string, body: StreamBody): Promise<string> {
  return new Promise((resolve, reject) => {
    const json = JSON.stringify(body);
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)) } }, (response) => {
      response.once('data', (chunk: Buffer) => {
        request.destroy();
        resolve(chunk.toString('utf8'));
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    request.end(json);
  });
}

/**
 * Sends `body` (to `path` of `url`'s server) and leaves (closes the connection) once the handler has
 * written `waitFile`, before anything of the answer was sent.
 */
function leaveOnceWaiting(url: string, body: unknown, waitFile: string, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const json = JSON.stringify(body);
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), ...headers } }, () => {
      reject(new Error('an answer came before the client left'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    request.end(json, () => {
      void (async () => {
        while (!existsSync(waitFile)) await sleep(20);
        request.destroy();
        resolve();
      })();
    });
  });
}

/** How the handler ended, once it has written it. */
async function endOf(file: string): Promise<StreamEnd> {
  while (!existsSync(file)) await sleep(20);
  return JSON.parse(readFileSync(file, 'utf8')) as StreamEnd;
}

function lines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Server-Sent Events as `{event, data}`, data parsed. */
function events(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
      return { event: String(fields['event']), data: JSON.parse(String(fields['data'])) as unknown };
    });
}

/** The value of the one sample of `name` on a Prometheus page whose labels include every one of `labels`; 0 when none. */
function sampleOf(page: string, name: string, labels: readonly string[] = []): number {
  const line = page.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && labels.every((label) => l.includes(label)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('HTTP streaming of a handler’s intermediate answers', () => {
  let t: TestServer;
  const logged: string[] = [];

  /** The access-log line of request `id`, once written. */
  async function accessLineOf(id: string): Promise<Record<string, unknown>> {
    for (;;) {
      const line = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'request' && l['requestId'] === id);
      if (line !== undefined) return line;
      await sleep(20);
    }
  }

  /** What the metrics port counts of error answers: TorchServe's by status class, Sluice's of `SLUICE_REQUEST_INVALID` over HTTP. */
  async function errorCounts(): Promise<{ requests4xx: number; invalid: number }> {
    const page = await (await fetch(`${t.metrics}/metrics`)).text();
    return {
      requests4xx: sampleOf(page, 'Requests4XX'),
      invalid: sampleOf(page, 'sluice_errors_total', ['code="SLUICE_REQUEST_INVALID"', 'transport="http"']),
    };
  }

  beforeAll(async () => {
    t = await startTestServer({
      logger: memoryLogger(logged),
      demoModels: [],
      handlers: [STREAMING_HANDLER, THREAD_STREAMING_HANDLER],
      nodeHandlers: [TAG_HANDLER],
      handlerPool: { threads: 2, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store, dir) => {
        await writeWorkflowFile(dir, 'tags.yaml', TAGS_WORKFLOW);
        await writeWorkflowFile(dir, 'steps.yaml', STEPS_WORKFLOW);
        await writeWorkflowFile(dir, 'nested.yaml', NESTED_WORKFLOW);
        await writeWorkflowFile(dir, 'wrap.yaml', WRAP_WORKFLOW);
        await writeWorkflowFile(dir, 'wrap-each.yaml', WRAP_EACH_WORKFLOW);
        await addStoreModel(store, 'streamer', (dir) => writeIdentityModel(dir, 'FP32'), { name: 'streamer', version: '1', handler: 'test/stream' });
        await addStoreModel(store, 'thread-streamer', (dir) => writeIdentityModel(dir, 'FP32'), { name: 'thread-streamer', version: '1', handler: 'test/stream-thread' });
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends each intermediate answer as a chunk of newline-delimited JSON, then the answer, on the inference lane', async () => {
    const answer = await send(`${t.inference}/predictions/streamer`, { parts: 3 });
    expect({ status: answer.status, type: answer.headers['content-type'], encoding: answer.headers['transfer-encoding'] }).toEqual({
      status: 200,
      type: 'application/x-ndjson; charset=utf-8',
      encoding: 'chunked',
    });
    expect(lines(answer.text)).toEqual([{ part: 0 }, { part: 1 }, { part: 2 }, { parts: 3 }]);
  });

  it('answers the same through the framework’s route (a version named) as through the lane', async () => {
    const lane = await send(`${t.inference}/predictions/streamer`, { parts: 2 });
    const routed = await send(`${t.inference}/predictions/streamer/1`, { parts: 2 });
    expect({ status: routed.status, type: routed.headers['content-type'], encoding: routed.headers['transfer-encoding'], text: routed.text }).toEqual({
      status: 200,
      type: lane.headers['content-type'],
      encoding: 'chunked',
      text: lane.text,
    });
  });

  it('answers as usual, with a length and no chunks, when the handler sends no intermediate answer', async () => {
    const answer = await send(`${t.inference}/predictions/streamer/1`, { parts: 0 });
    expect({ status: answer.status, length: answer.headers['content-length'], body: JSON.parse(answer.text) as unknown }).toEqual({ status: 200, length: String(answer.text.length), body: { parts: 0 } });
  });

  it('sends Server-Sent Events when the client accepts text/event-stream: partial events, then the result', async () => {
    const answer = await send(`${t.inference}/predictions/streamer`, { parts: 2 }, { accept: 'text/event-stream' });
    expect({ status: answer.status, type: answer.headers['content-type'] }).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });
    expect(events(answer.text)).toEqual([
      { event: 'partial', data: { part: 0 } },
      { event: 'partial', data: { part: 1 } },
      { event: 'result', data: { parts: 2 } },
    ]);
  });

  it('sends a result event alone to an event-stream client when the handler sends no intermediate answer', async () => {
    const answer = await send(`${t.inference}/predictions/streamer/1`, { parts: 0 }, { accept: 'text/event-stream' });
    expect(events(answer.text)).toEqual([{ event: 'result', data: { parts: 0 } }]);
  });

  it('ends an event stream with an error event carrying the error body when the handler fails after its first answers', async () => {
    const answer = await send(`${t.inference}/predictions/streamer`, { parts: 5, failAfter: 2 }, { accept: 'text/event-stream' });
    expect(events(answer.text)).toEqual([
      { event: 'partial', data: { part: 0 } },
      { event: 'partial', data: { part: 1 } },
      { event: 'error', data: { code: 400, type: 'BadRequestException', message: 'failing on purpose after 2 parts', errorCode: 'SLUICE_REQUEST_INVALID' } },
    ]);
  });

  it('ends newline-delimited JSON with a last line carrying the error body when the handler fails after its first answers', async () => {
    const answer = await send(`${t.inference}/predictions/streamer`, { parts: 5, failAfter: 2 });
    expect({ status: answer.status, type: answer.headers['content-type'] }).toEqual({ status: 200, type: 'application/x-ndjson; charset=utf-8' });
    expect(lines(answer.text)).toEqual([
      { part: 0 },
      { part: 1 },
      { code: 400, type: 'BadRequestException', message: 'failing on purpose after 2 parts', errorCode: 'SLUICE_REQUEST_INVALID' },
    ]);
  });

  it.each([
    ['newline-delimited JSON on the inference lane', '/predictions/streamer', {}],
    ['Server-Sent Events through the framework’s route', '/predictions/streamer/1', { accept: 'text/event-stream' }],
  ])('records a stream of %s that fails after it started with the failure’s status and code, in the access log and the error counts', async (_kind, path, headers) => {
    const id = `stream-failure-${path.replaceAll('/', '-')}`;
    const before = await errorCounts();
    const answer = await send(`${t.inference}${path}`, { parts: 5, failAfter: 2 }, { ...headers, 'x-request-id': id });
    expect(answer.status).toBe(200);
    expect(await accessLineOf(id)).toMatchObject({ status: 400, errorCode: 'SLUICE_REQUEST_INVALID' });
    const after = await errorCounts();
    expect({ requests4xx: after.requests4xx - before.requests4xx, invalid: after.invalid - before.invalid }).toEqual({ requests4xx: 1, invalid: 1 });
  });

  it('answers a failure before the first intermediate answer with the ordinary error', async () => {
    const answer = await send(`${t.inference}/predictions/streamer`, { parts: 5, failAfter: 1 }, { accept: 'text/event-stream' });
    expect(events(answer.text)[0]).toEqual({ event: 'partial', data: { part: 0 } });
    const before = await send(`${t.inference}/predictions/nobody`, { parts: 1 }, { accept: 'text/event-stream' });
    expect({ status: before.status, body: JSON.parse(before.text) as unknown }).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('streams from a handler on a worker thread, each answer crossing to the main thread', async () => {
    const answer = await send(`${t.inference}/predictions/thread-streamer`, { parts: 3 });
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(lines(answer.text)).toEqual([{ part: 0 }, { part: 1 }, { part: 2 }, { parts: 3 }]);
  });

  it('streams a workflow’s progress as Server-Sent Events when the client accepts text/event-stream: each forEach call, then the result', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags`, { tags: ['a', 'b'] }, { accept: 'text/event-stream' });
    const received = events(answer.text);
    expect(received.slice(0, 2)).toEqual(expect.arrayContaining([0, 1].map((index) => ({ event: 'progress', data: { node: 'each', index, count: 2, outputs: { tag: ['a', 'b'][index] } } }))));
    expect(received.slice(2)).toEqual([{ event: 'result', data: ['a', 'b'] }]);
  });

  it('streams a workflow’s progress as newline-delimited JSON when the client accepts application/x-ndjson', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags`, { tags: ['a'] }, { accept: 'application/x-ndjson' });
    expect(answer.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(lines(answer.text)).toEqual([{ node: 'each', index: 0, count: 1, outputs: { tag: 'a' } }, ['a']]);
  });

  it('streams every node of a workflow as it settles, besides its forEach calls, when asked with ?progress=nodes', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags?progress=nodes`, { tags: ['a', 'b'] }, { accept: 'text/event-stream' });
    const received = events(answer.text);
    expect(received.slice(0, 2)).toEqual(expect.arrayContaining([0, 1].map((index) => ({ event: 'progress', data: { node: 'each', index, count: 2, outputs: { tag: ['a', 'b'][index] } } }))));
    expect(received.slice(2)).toEqual([
      { event: 'node', data: { node: 'each', status: 'ok', outputs: { tag: ['a', 'b'] } } },
      { event: 'result', data: ['a', 'b'] },
    ]);
  });

  it('streams each node of a workflow with no forEach as it settles, a skipped one with no outputs, with ?progress=nodes', async () => {
    const answer = await send(`${t.inference}/wfpredict/steps?progress=nodes`, { word: 'w' }, { accept: 'text/event-stream' });
    const received = events(answer.text);
    expect(received[0]).toEqual({ event: 'node', data: { node: 'first', status: 'ok', outputs: { tag: 'w' } } });
    expect(received.slice(1, 3)).toEqual(
      expect.arrayContaining([
        { event: 'node', data: { node: 'second', status: 'ok', outputs: { tag: 'w' } } },
        { event: 'node', data: { node: 'never', status: 'skipped' } },
      ]),
    );
    expect(received.slice(3)).toEqual([{ event: 'result', data: { word: 'w' } }]);
  });

  it('streams the nodes inside sub-workflows too with ?progress=nested, each named by its path, before the workflow node that ran them', async () => {
    const answer = await send(`${t.inference}/wfpredict/wrap?progress=nested`, { word: 'w' }, { accept: 'text/event-stream' });
    const received = events(answer.text);
    expect(received[0]).toEqual({ event: 'node', data: { node: 'inner.call.first', status: 'ok', outputs: { tag: 'w' } } });
    expect(received.slice(1, 3)).toEqual(
      expect.arrayContaining([
        { event: 'node', data: { node: 'inner.call.second', status: 'ok', outputs: { tag: 'w' } } },
        { event: 'node', data: { node: 'inner.call.never', status: 'skipped' } },
      ]),
    );
    expect(received.slice(3)).toEqual([
      { event: 'node', data: { node: 'inner.call', status: 'ok', outputs: { word: 'w' } } },
      { event: 'node', data: { node: 'inner', status: 'ok', outputs: { word: 'w' } } },
      { event: 'result', data: 'w' },
    ]);
  });

  it('streams the nodes of the run alone with ?progress=nodes, not those inside its sub-workflows', async () => {
    const answer = await send(`${t.inference}/wfpredict/wrap?progress=nodes`, { word: 'w' }, { accept: 'text/event-stream' });
    expect(events(answer.text)).toEqual([
      { event: 'node', data: { node: 'inner', status: 'ok', outputs: { word: 'w' } } },
      { event: 'result', data: 'w' },
    ]);
  });

  it('streams the nodes of each forEach call of a workflow node as <node>[<index>].<inner> with ?progress=nested', async () => {
    const answer = await send(`${t.inference}/wfpredict/wrap-each?progress=nested`, { words: ['x', 'y'] }, { accept: 'application/x-ndjson' });
    const received = lines(answer.text) as ({ node: string; index?: number; status?: string } | string[])[];
    const named = received.map((step) => (Array.isArray(step) ? step : step.index !== undefined ? `${step.node}#${step.index}` : `${step.node}:${step.status ?? ''}`));
    // One call at a time: its sub-workflow's nodes (second and never in either order), then the call's progress.
    for (const index of [0, 1]) {
      const call = named.slice(index * 5, index * 5 + 5);
      expect(call[0]).toBe(`each[${index}].call.first:ok`);
      expect(call.slice(1, 3).sort()).toEqual([`each[${index}].call.never:skipped`, `each[${index}].call.second:ok`]);
      expect(call.slice(3)).toEqual([`each[${index}].call:ok`, `each#${index}`]);
    }
    expect(named.slice(10)).toEqual(['each:ok', ['x', 'y']]);
  });

  it('streams every node as newline-delimited JSON too with ?progress=nodes', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags?progress=nodes`, { tags: ['a'] }, { accept: 'application/x-ndjson' });
    expect(lines(answer.text)).toEqual([{ node: 'each', index: 0, count: 1, outputs: { tag: 'a' } }, { node: 'each', status: 'ok', outputs: { tag: ['a'] } }, ['a']]);
  });

  it('streams only the forEach calls with ?progress=calls, as without it', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags?progress=calls`, { tags: ['a'] }, { accept: 'text/event-stream' });
    expect(events(answer.text)).toEqual([
      { event: 'progress', data: { node: 'each', index: 0, count: 1, outputs: { tag: 'a' } } },
      { event: 'result', data: ['a'] },
    ]);
  });

  it.each([
    ['streamed', { accept: 'text/event-stream' }],
    ['answered once', {}],
  ])('refuses a progress parameter other than calls or nodes (%s) with 400 SLUICE_REQUEST_INVALID', async (_how, headers: Record<string, string>) => {
    const answer = await send(`${t.inference}/wfpredict/tags?progress=all`, { tags: ['a'] }, headers);
    expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({
      status: 400,
      body: expect.objectContaining({ errorCode: 'SLUICE_REQUEST_INVALID', message: 'the progress query parameter must be calls, nodes or nested (once), got "all"' }) as unknown,
    });
  });

  it('answers a workflow once, as before, when the client does not ask for a stream', async () => {
    const answer = await send(`${t.inference}/wfpredict/tags`, { tags: ['a'] });
    expect({ type: answer.headers['content-type'], body: JSON.parse(answer.text) as unknown }).toEqual({ type: 'application/json; charset=utf-8', body: ['a'] });
  });

  describe('a client that leaves stops the work', () => {
    // Far more than the socket and the stream buffer hold: only a handler that waits for the client can be stopped.
    const PARTS = 100_000;
    const PADDING = 1024;

    it('on the event loop: sendPartial rejects with SLUICE_CLIENT_GONE and the context’s signal aborts', async () => {
      const endFile = join(t.dir, 'loop-end.json');
      const first = await leaveAfterFirstChunk(`${t.inference}/predictions/streamer`, { parts: PARTS, padding: PADDING, endFile });
      expect(first.startsWith('{"part":0')).toBe(true);
      const end = await endOf(endFile);
      expect(end).toMatchObject({ code: 'SLUICE_CLIENT_GONE', aborted: true });
      expect(end.sent).toBeLessThan(PARTS);
    });

    it('on a worker thread: the same, told across the thread', async () => {
      const endFile = join(t.dir, 'thread-end.json');
      await leaveAfterFirstChunk(`${t.inference}/predictions/thread-streamer`, { parts: PARTS, padding: PADDING, endFile });
      const end = await endOf(endFile);
      expect(end).toMatchObject({ code: 'SLUICE_CLIENT_GONE', aborted: true });
      expect(end.sent).toBeLessThan(PARTS);
    });

    it('before the first intermediate answer, on the inference lane: the handler’s signal aborts', async () => {
      const [waitFile, endFile] = [join(t.dir, 'early-lane-wait'), join(t.dir, 'early-lane-end.json')];
      await leaveOnceWaiting(`${t.inference}/predictions/streamer`, { parts: 3, waitFile, endFile }, waitFile);
      expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
    });

    it('before the first event of Server-Sent Events, through the framework’s route: the handler’s signal aborts', async () => {
      const [waitFile, endFile] = [join(t.dir, 'early-sse-wait'), join(t.dir, 'early-sse-end.json')];
      await leaveOnceWaiting(`${t.inference}/predictions/streamer/1`, { parts: 3, waitFile, endFile }, waitFile, { accept: 'text/event-stream' });
      expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
    });

    it('before the first intermediate answer, on a worker thread: the abort is told across the thread', async () => {
      const [waitFile, endFile] = [join(t.dir, 'early-thread-wait'), join(t.dir, 'early-thread-end.json')];
      await leaveOnceWaiting(`${t.inference}/predictions/thread-streamer`, { parts: 3, waitFile, endFile }, waitFile);
      expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
    });

    it('on a request that cannot stream (KServe v1 :predict): the handler’s signal aborts as well', async () => {
      const [waitFile, endFile] = [join(t.dir, 'early-v1-wait'), join(t.dir, 'early-v1-end.json')];
      await leaveOnceWaiting(`${t.inference}/v1/models/streamer:predict`, { instances: [{ parts: 3, waitFile, endFile }] }, waitFile);
      expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
    });
  });
});
