import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawAnswer, rawAnswerStatuses, rawExchangeWritingBody } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const RECEIVE_TIMEOUT_MS = 1500;
/** Larger than any body a client writes before its send buffer fills, so the refusal is ready while it is still sending. */
const BODY_BYTES = 4 * 1024 * 1024;
/** More than OVERSIZED_BODY_DRAIN_BYTES: a body the server does not wait for. */
const UNWAITED_BODY_BYTES = 100 * 1024 * 1024;

/** One connection's answers: their statuses, the first one's error code, and how the connection ended. */
async function exchange(base: string, head: string, bodyBytes: number): Promise<{ statuses: number[]; errorCode: unknown; socketError: string | undefined }> {
  const { text, socketError } = await rawExchangeWritingBody(base, head, bodyBytes);
  const first = parseRawAnswer(text);
  return { statuses: rawAnswerStatuses(text), errorCode: (JSON.parse(first.body.split('\r\n')[0] ?? '') as { errorCode?: unknown }).errorCode, socketError };
}

function head(path: string, declared: number, extra = ''): string {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}Content-Length: ${declared}\r\n\r\n`;
}

/**
 * A refusal decided on a request's head, before its body is read, is the request's one answer and reaches a
 * client that is still sending: the answer waits until the rest of the body has arrived and been dropped.
 */
describe('refusals decided before the body is read', () => {
  let t: TestServer;
  const routes: readonly (readonly [string, () => string, string])[] = [
    ['the inference lane', () => t.inference, '/predictions/iris'],
    ['a framework inference route', () => t.inference, '/v1/models/iris:predict'],
    ['a management route', () => t.management, '/models?url=iris'],
  ];

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      auth: { inference: 'token-auth', management: 'token-auth' },
      config: { requestReceiveTimeoutMs: RECEIVE_TIMEOUT_MS, maxRequestSizeBytes: 8 * 1024 * 1024 },
    });
  });
  afterAll(() => t.close());

  it.each(routes)('on %s, a request without credentials whose body never comes gets one answer, 408, and its connection closes', async (_route, base, path) => {
    expect(await exchange(base(), head(path, 100), 0)).toEqual({ statuses: [408], errorCode: 'SLUICE_REQUEST_INVALID', socketError: undefined });
  });

  it.each(routes)(
    'on %s, a request without credentials and a 4 MiB body, written whole before the answer is read (no Expect: 100-continue), gets its 401',
    async (_route, base, path) => {
      expect(await exchange(base(), head(path, BODY_BYTES, 'Connection: close\r\n'), BODY_BYTES)).toEqual({
        statuses: [401],
        errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS',
        socketError: undefined,
      });
    },
  );

  it.each(routes.slice(1))('on %s, a request without credentials declaring a body too large to wait for gets its 401 at once, and its connection closes', async (_route, base, path) => {
    expect(await exchange(base(), head(path, UNWAITED_BODY_BYTES), 0)).toEqual({ statuses: [401], errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS', socketError: undefined });
  });
});

describe('a body sent with a content coding, refused before it is read', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], config: { requestReceiveTimeoutMs: RECEIVE_TIMEOUT_MS, maxRequestSizeBytes: 8 * 1024 * 1024 } });
  });
  afterAll(() => t.close());

  it.each(['/predictions/iris', '/v1/models/iris:predict'])('on %s, written whole before the answer is read, gets its 415', async (path) => {
    expect(await exchange(t.inference, head(path, BODY_BYTES, 'Content-Encoding: gzip\r\nConnection: close\r\n'), BODY_BYTES)).toEqual({
      statuses: [415],
      errorCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      socketError: undefined,
    });
  });

  it.each(['/predictions/iris', '/v1/models/iris:predict'])('on %s, whose body never comes, gets one answer, 408', async (path) => {
    expect(await exchange(t.inference, head(path, 100, 'Content-Encoding: gzip\r\n'), 0)).toEqual({ statuses: [408], errorCode: 'SLUICE_REQUEST_INVALID', socketError: undefined });
  });
});

describe('a malformed path, refused before the body is read', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], config: { requestReceiveTimeoutMs: RECEIVE_TIMEOUT_MS, maxRequestSizeBytes: 8 * 1024 * 1024 } });
  });
  afterAll(() => t.close());

  it.each([
    ['the inference port', () => t.inference, '/v1/models/ir%zzis:predict'],
    ['the management port', () => t.management, '/models/ir%zzis'],
  ])('on %s, with a 4 MiB body written whole before the answer is read, gets its 400', async (_port, base, path) => {
    expect(await exchange(base(), head(path, BODY_BYTES, 'Connection: close\r\n'), BODY_BYTES)).toEqual({
      statuses: [400],
      errorCode: 'SLUICE_REQUEST_INVALID',
      socketError: undefined,
    });
  });

  it('whose body never comes gets one answer, 408', async () => {
    expect(await exchange(t.management, head('/models/ir%zzis', 100), 0)).toEqual({ statuses: [408], errorCode: 'SLUICE_REQUEST_INVALID', socketError: undefined });
  });
});
