import { cp, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stallingHandler } from '../support/handlers/stalling-handler.js';
import { parseRawAnswer } from '../support/raw-http.js';
import { memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

type Line = Record<string, unknown>;

const RECEIVE_TIMEOUT_MS = 1500;
const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * `requestReceiveTimeoutMs` bounds how long a client may take to send a whole request: a body trickling
 * in byte by byte is refused with 408 and logged, while a request that has arrived is never cut off by
 * it, however long its model takes.
 */
describe('requestReceiveTimeoutMs', () => {
  const raw: string[] = [];
  let t: TestServer;
  const accessLines = (): Line[] => raw.map((l) => JSON.parse(l) as Line).filter((l) => l['msg'] === 'request');

  /**
   * Sends `head` on a fresh connection, then the body it declares one byte every 100 ms, never all of it;
   * resolves with the answer once the server closes the connection, and the access-log lines it added.
   */
  const trickle = async (head: string): Promise<{ status: number; errorCode: unknown; lines: Line[] }> => {
    const before = accessLines().length;
    const { hostname, port } = new URL(t.inference);
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    let dripping: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      socket.once('connect', () => {
        socket.write(head);
        dripping = setInterval(() => {
          if (socket.writable) socket.write('[');
        }, 100);
      });
      socket.once('close', () => {
        resolve();
      });
      // A byte written as the server closes may reset the connection; what it answered is still read.
      socket.once('error', () => undefined);
    });
    clearInterval(dripping);
    // The line is written when the request's connection closes, which may be a turn after ours.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = parseRawAnswer(Buffer.concat(chunks).toString('utf8'));
    return { status: answer.status, errorCode: (JSON.parse(answer.body) as Line)['errorCode'], lines: accessLines().slice(before) };
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      handlers: [stallingHandler()],
      logger: memoryLogger(raw),
      config: { requestReceiveTimeoutMs: RECEIVE_TIMEOUT_MS },
      prepare: async (store) => {
        await cp(join(store, 'iris'), join(store, 'stalling'), { recursive: true });
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'stalling', 'model.yaml'), manifest.replace('name: iris', 'name: stalling').replace('handler: classifier', 'handler: stalling'));
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a body of a declared length sent too slowly → 408 SLUICE_REQUEST_INVALID, once the timeout has passed, and the request’s line says 408', async () => {
    const sent = performance.now();
    const result = await trickle('POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: slow-body\r\nContent-Length: 1000\r\n\r\n');
    expect(performance.now() - sent).toBeGreaterThanOrEqual(RECEIVE_TIMEOUT_MS - 50);
    expect(result).toEqual({
      status: 408,
      errorCode: 'SLUICE_REQUEST_INVALID',
      lines: [expect.objectContaining({ url: '/predictions/iris', requestId: 'slow-body', status: 408, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ERR_HTTP_REQUEST_TIMEOUT' })],
    });
  });

  it('a chunked body sent too slowly → 408 SLUICE_REQUEST_INVALID, and the request’s line says 408', async () => {
    const result = await trickle('POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: slow-chunks\r\nTransfer-Encoding: chunked\r\n\r\n3e8\r\n');
    expect(result).toEqual({
      status: 408,
      errorCode: 'SLUICE_REQUEST_INVALID',
      lines: [expect.objectContaining({ url: '/predictions/iris', requestId: 'slow-chunks', status: 408, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ERR_HTTP_REQUEST_TIMEOUT' })],
    });
  });

  it('a request sent at once is answered', async () => {
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200 });
  });

  it('a request whose model runs longer than the timeout (plus its check interval) is answered, not cut off', async () => {
    const answer = await requestJson(`${t.inference}/predictions/stalling`, { method: 'POST', json: { features: SETOSA, stall: 'preprocess', settleAfterMs: RECEIVE_TIMEOUT_MS + 2000 } });
    expect(answer).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
  });
});
