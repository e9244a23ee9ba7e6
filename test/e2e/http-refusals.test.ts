import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawAnswer, rawExchange } from '../support/raw-http.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * Requests refused before a route runs — a method the path does not take, a malformed path, malformed
 * HTTP, headers over the limit — get Sluice's error bodies with a status and a message that say what
 * to fix, and the server goes on serving.
 */
describe('requests refused before a route runs', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a method the path does not take → 405 SLUICE_METHOD_NOT_ALLOWED, with Allow', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'GET' });
    expect({ status: answer.status, allow: answer.headers.get('allow'), body: answer.body }).toEqual({
      status: 405,
      allow: 'POST, PUT',
      body: { code: 405, type: 'MethodNotAllowedException', errorCode: 'SLUICE_METHOD_NOT_ALLOWED', message: 'GET /predictions/iris is not allowed: this path takes POST, PUT' },
    });
  });

  it('a method an OIP path does not take → 405 in the OIP error style', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'DELETE' });
    expect({ status: answer.status, allow: answer.headers.get('allow'), body: answer.body }).toEqual({
      status: 405,
      allow: 'POST',
      body: { error: 'DELETE /v2/models/iris/infer is not allowed: this path takes POST', errorCode: 'SLUICE_METHOD_NOT_ALLOWED' },
    });
  });

  it('GET on KServe v1 :predict → 405 with Allow: POST, not a 404 for a model named iris:predict', async () => {
    const answer = await requestJson(`${t.inference}/v1/models/iris:predict`);
    expect({ status: answer.status, allow: answer.headers.get('allow'), body: answer.body }).toEqual({
      status: 405,
      allow: 'POST',
      body: { error: 'GET /v1/models/iris:predict is not allowed: this path takes POST', errorCode: 'SLUICE_METHOD_NOT_ALLOWED' },
    });
  });

  it('another method on KServe v1 :predict → 405 allowing POST only', async () => {
    const answer = await requestJson(`${t.inference}/v1/models/iris:predict`, { method: 'PUT' });
    expect({ status: answer.status, allow: answer.headers.get('allow') }).toEqual({ status: 405, allow: 'POST' });
  });

  it('POST on a KServe v1 model without :predict → 405 allowing GET and HEAD, saying how to predict', async () => {
    const answer = await requestJson(`${t.inference}/v1/models/iris`, { method: 'POST', json: { instances: [SETOSA] } });
    expect({ status: answer.status, allow: answer.headers.get('allow'), body: answer.body }).toEqual({
      status: 405,
      allow: 'GET, HEAD',
      body: { error: 'POST /v1/models/iris is not allowed: this path takes GET, HEAD; predict with POST /v1/models/iris:predict', errorCode: 'SLUICE_METHOD_NOT_ALLOWED' },
    });
  });

  it('GET on the versioned inference routes → 405 with the methods each takes in Allow', async () => {
    const predictions = await requestJson(`${t.inference}/predictions/iris/1.0`);
    const infer = await requestJson(`${t.inference}/v2/models/iris/versions/1.0/infer`);
    expect([predictions.status, predictions.headers.get('allow'), infer.status, infer.headers.get('allow')]).toEqual([405, 'POST, PUT', 405, 'POST']);
  });

  it('a path no route takes with any method is still 404 SLUICE_ROUTE_NOT_FOUND', async () => {
    expect(await requestJson(`${t.management}/no/such/route`, { method: 'PUT' })).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_ROUTE_NOT_FOUND' } });
  });

  it('a path whose model name is empty → 404 SLUICE_ROUTE_NOT_FOUND, not a 405 naming the method it used', async () => {
    const metadata = await requestJson(`${t.inference}/v2/models/`);
    expect({ status: metadata.status, allow: metadata.headers.get('allow'), body: metadata.body }).toEqual({
      status: 404,
      allow: null,
      body: { error: 'no route GET /v2/models/; GET /api-description lists the routes of this port', errorCode: 'SLUICE_ROUTE_NOT_FOUND' },
    });
    expect(await requestJson(`${t.inference}/v2/models//ready`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_ROUTE_NOT_FOUND' } });
    expect(await requestJson(`${t.inference}/predictions/`, { method: 'POST', json: SETOSA })).toMatchObject({
      status: 404,
      body: { code: 404, errorCode: 'SLUICE_ROUTE_NOT_FOUND', message: 'no route POST /predictions/; GET /api-description lists the routes of this port' },
    });
  });

  it('a method a path with an empty model name does not take either → 404, not a 405 allowing what is refused', async () => {
    expect(await requestJson(`${t.inference}/v2/models/`, { method: 'DELETE' })).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_ROUTE_NOT_FOUND' } });
  });

  it('a % that starts no escape → 400 SLUICE_REQUEST_INVALID', async () => {
    expect(await requestJson(`${t.inference}/predictions/%zz`, { method: 'POST', json: SETOSA })).toMatchObject({
      status: 400,
      body: { code: 400, errorCode: 'SLUICE_REQUEST_INVALID', message: 'the path /predictions/%zz is not valid: each % must start an escape of two hex digits (%25 for % itself)' },
    });
  });

  it('a model name of 128 characters, the longest a manifest allows, reaches its route', async () => {
    const name = `m${'x'.repeat(127)}`;
    expect(await requestJson(`${t.management}/models/${name}`)).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('a path segment over 1024 characters → 400 SLUICE_REQUEST_INVALID', async () => {
    const answer = await requestJson(`${t.management}/models/${'x'.repeat(1025)}`);
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_REQUEST_INVALID', message: expect.stringMatching(/ is longer than 1024 characters; no route takes one that long$/) as unknown } });
  });

  it('malformed HTTP → 400 SLUICE_REQUEST_INVALID naming the fault, and the connection closes', async () => {
    const answer = parseRawAnswer(await rawExchange(t.inference, 'POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n[1]'));
    expect({ status: answer.status, connection: answer.headers['connection'], body: JSON.parse(answer.body) as unknown }).toEqual({
      status: 400,
      connection: 'close',
      body: {
        code: 400,
        type: 'BadRequestException',
        errorCode: 'SLUICE_REQUEST_INVALID',
        message: 'the request is not valid HTTP/1.1: Duplicate Content-Length (HPE_UNEXPECTED_CONTENT_LENGTH); send the request line, headers and body as HTTP/1.1 defines them',
      },
    });
  });

  it('answers the requests pipelined before a malformed one first, in order, then refuses it', async () => {
    const body = JSON.stringify(SETOSA);
    const good = (id: string): string => `POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: ${id}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const text = await rawExchange(t.inference, `${good('first')}${good('second')}GARBAGE\r\n\r\n`);
    const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/).map((part) => {
      const { status, headers } = parseRawAnswer(part);
      return { status, id: headers['x-request-id'] };
    });
    expect(answers).toEqual([
      { status: 200, id: 'first' },
      { status: 200, id: 'second' },
      { status: 400, id: undefined },
    ]);
  });

  it('a malformed chunk inside a request being served → 400 at once, the connection closed', async () => {
    const answer = parseRawAnswer(
      await rawExchange(t.inference, 'POST /predictions/iris HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[5.1,\r\nZZ\r\n'),
    );
    expect({ status: answer.status, errorCode: (JSON.parse(answer.body) as { errorCode: string }).errorCode }).toEqual({ status: 400, errorCode: 'SLUICE_REQUEST_INVALID' });
  });

  it('headers over the limit → 431 SLUICE_REQUEST_TOO_LARGE', async () => {
    const answer = parseRawAnswer(await rawExchange(t.inference, `GET /ping HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
      status: 431,
      body: {
        code: 431,
        type: 'RequestTooLargeException',
        errorCode: 'SLUICE_REQUEST_TOO_LARGE',
        message: "the request's headers are larger than the limit of 16384 bytes; send fewer or shorter headers",
      },
    });
  });

  it('goes on serving after all of them', async () => {
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200 });
  });
});
