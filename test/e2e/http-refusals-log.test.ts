import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawAnswer, rawExchange } from '../support/raw-http.js';
import { memoryLogger, startTestServer, type TestServer } from '../support/test-server.js';

type Line = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Requests Node's HTTP parser refuses, and heads that do not arrive in time, have no request object, yet
 * each gets one access-log line (with what the parser read of its request line, the client's address
 * and a request id) and is counted in `sluice_errors_total`, as every other refused request is: a client
 * cannot probe the port without a trace.
 */
describe('requests refused by the HTTP parser are logged and counted', () => {
  const raw: string[] = [];
  let t: TestServer;
  const accessLines = (): Line[] => raw.map((l) => JSON.parse(l) as Line).filter((l) => l['msg'] === 'request');

  /** `sluice_errors_total` of `code` on HTTP, as the metrics page shows it now. */
  const errorCount = async (code: string): Promise<number> => {
    const page = await (await fetch(`${t.metrics}/metrics`)).text();
    const line = page.split('\n').find((l) => l.startsWith('sluice_errors_total{') && l.includes(`code="${code}"`) && l.includes('transport="http"'));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  /**
   * Sends `bytes` on a fresh connection and resolves with the answer, the access-log lines the exchange
   * added and how much the error count of `code` rose.
   */
  const refused = async (bytes: string, code: string): Promise<{ status: number; errorCode: unknown; lines: Line[]; counted: number }> => {
    const before = accessLines().length;
    const countBefore = await errorCount(code);
    // The refusal is the last answer on the connection (requests pipelined before it are answered first).
    const answer = parseRawAnswer((await rawExchange(t.inference, bytes)).split(/(?=HTTP\/1\.1 \d{3} )/).pop() ?? '');
    // The count is read after the lines of the exchange's turn are written.
    const counted = (await errorCount(code)) - countBefore;
    return { status: answer.status, errorCode: (JSON.parse(answer.body) as Line)['errorCode'], lines: accessLines().slice(before), counted };
  };

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], logger: memoryLogger(raw) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('headers over the limit → 431 SLUICE_REQUEST_TOO_LARGE, one line with the request line read and the padding left out, counted', async () => {
    const result = await refused(`GET /ping HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`, 'SLUICE_REQUEST_TOO_LARGE');
    expect(result).toEqual({
      status: 431,
      errorCode: 'SLUICE_REQUEST_TOO_LARGE',
      lines: [
        expect.objectContaining({
          level: 'info',
          method: 'GET',
          route: null,
          url: '/ping',
          status: 431,
          latencyMs: null,
          requestId: expect.stringMatching(UUID) as unknown,
          errorCode: 'SLUICE_REQUEST_TOO_LARGE',
          parserError: 'HPE_HEADER_OVERFLOW',
          remoteAddress: '127.0.0.1',
        }),
      ],
      counted: 1,
    });
    expect(raw.some((l) => l.includes('aaaaaaaa'))).toBe(false);
  });

  it('a malformed request line → 400 SLUICE_REQUEST_INVALID, one line without a method or url, counted', async () => {
    const result = await refused('GARBAGE\r\n\r\n', 'SLUICE_REQUEST_INVALID');
    expect(result).toEqual({
      status: 400,
      errorCode: 'SLUICE_REQUEST_INVALID',
      lines: [
        {
          level: 'info',
          time: expect.any(String) as unknown,
          port: 'inference',
          msg: 'request',
          method: null,
          route: null,
          url: null,
          status: 400,
          latencyMs: null,
          requestId: expect.stringMatching(UUID) as unknown,
          errorCode: 'SLUICE_REQUEST_INVALID',
          parserError: 'HPE_INVALID_METHOD',
          remoteAddress: '127.0.0.1',
        },
      ],
      counted: 1,
    });
  });

  it('a request line the parser read before its fault → the line names its method and url, cut when long', async () => {
    const url = `/predictions/${'u'.repeat(400)}`;
    const result = await refused(`GET ${url} HTTP/9.9\r\nHost: x\r\n\r\n`, 'SLUICE_REQUEST_INVALID');
    expect(result).toMatchObject({ status: 400, errorCode: 'SLUICE_REQUEST_INVALID', lines: [{ method: 'GET', url: `${url.slice(0, 256)}…`, status: 400, parserError: 'HPE_INVALID_VERSION' }], counted: 1 });
  });

  it('a malformed chunk inside a request being served → 400, the request’s own line says so, counted once', async () => {
    const result = await refused(
      'POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: bad-chunk\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[5.1,\r\nZZ\r\n',
      'SLUICE_REQUEST_INVALID',
    );
    expect(result).toEqual({
      status: 400,
      errorCode: 'SLUICE_REQUEST_INVALID',
      lines: [
        expect.objectContaining({
          method: 'POST',
          route: '/predictions/:model',
          url: '/predictions/iris',
          model: 'iris',
          status: 400,
          latencyMs: expect.any(Number) as unknown,
          requestId: 'bad-chunk',
          errorCode: 'SLUICE_REQUEST_INVALID',
          parserError: 'HPE_INVALID_CHUNK_SIZE',
          remoteAddress: '127.0.0.1',
        }),
      ],
      counted: 1,
    });
  });

  it('a head that does not arrive in time → 408 SLUICE_REQUEST_INVALID, one line, counted', async () => {
    const http = t.server.inference.app.getHttpServer();
    const headersTimeout = http.headersTimeout;
    http.headersTimeout = 200;
    try {
      const before = accessLines().length;
      const countBefore = await errorCount('SLUICE_REQUEST_INVALID');
      const { hostname, port } = new URL(t.inference);
      const socket = connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await new Promise<void>((resolve, reject) => {
        // The request line and one header, and then nothing: the head never ends.
        socket.once('connect', () => socket.write('GET /ping HTTP/1.1\r\nHost: x\r\n'));
        socket.once('close', () => {
          resolve();
        });
        socket.once('error', reject);
      });
      const answer = parseRawAnswer(Buffer.concat(chunks).toString('utf8'));
      expect({ status: answer.status, errorCode: (JSON.parse(answer.body) as Line)['errorCode'], lines: accessLines().slice(before), counted: (await errorCount('SLUICE_REQUEST_INVALID')) - countBefore }).toEqual({
        status: 408,
        errorCode: 'SLUICE_REQUEST_INVALID',
        lines: [
          expect.objectContaining({ method: null, url: null, status: 408, requestId: expect.stringMatching(UUID) as unknown, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ERR_HTTP_REQUEST_TIMEOUT', remoteAddress: '127.0.0.1' }),
        ],
        counted: 1,
      });
    } finally {
      http.headersTimeout = headersTimeout;
    }
  });

  it('a client that resets the connection part way through a head → one line, status 499, counted', async () => {
    const before = accessLines().length;
    const countBefore = await errorCount('SLUICE_REQUEST_INVALID');
    const http = t.server.inference.app.getHttpServer();
    const serverSide = new Promise<Socket>((resolve) => http.once('connection', resolve));
    const { hostname, port } = new URL(t.inference);
    const head = 'POST /predictions/iris HTTP/1.1\r\nHost: x\r\n';
    const socket = connect(Number(port), hostname, () => socket.write(head));
    socket.on('error', () => undefined);
    const server = await serverSide;
    while (server.bytesRead < head.length) await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = new Promise((resolve) => server.once('close', resolve));
    socket.resetAndDestroy();
    await closed;
    expect({ lines: accessLines().slice(before), counted: (await errorCount('SLUICE_REQUEST_INVALID')) - countBefore }).toEqual({
      lines: [expect.objectContaining({ method: null, url: null, status: 499, requestId: expect.stringMatching(UUID) as unknown, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'ECONNRESET' })],
      counted: 1,
    });
  });

  it('a request pipelined behind another and refused → the line claims neither the earlier request’s method nor its url', async () => {
    const body = '[5.1,3.5,1.4,0.2]';
    const result = await refused(`POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}BAD LINE\r\n\r\n`, 'SLUICE_REQUEST_INVALID');
    // Both lines are written in the turn the earlier answer ends; which comes first is not promised.
    const lines = [...result.lines].sort((a, b) => Number(a['status']) - Number(b['status']));
    expect({ ...result, lines }).toEqual({
      status: 400,
      errorCode: 'SLUICE_REQUEST_INVALID',
      lines: [
        expect.objectContaining({ method: 'POST', url: '/predictions/iris', status: 200 }),
        expect.objectContaining({ method: null, url: null, status: 400, errorCode: 'SLUICE_REQUEST_INVALID', parserError: 'HPE_INVALID_METHOD' }),
      ],
      counted: 1,
    });
  });
});
