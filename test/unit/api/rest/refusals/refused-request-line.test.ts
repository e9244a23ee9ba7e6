import { describe, expect, it } from '@jest/globals';
import { refusedRequestLine } from '../../../../../src/api/rest/refusals/refused-request-line.js';

/** A parse error as Node's HTTP parser makes it, failed `bytesParsed` bytes into `text`, the connection's only read. */
function parseError(text: string, bytesParsed: number): { rawPacket: Buffer; bytesParsed: number; bytesRead: number } {
  const rawPacket = Buffer.from(text, 'latin1');
  return { rawPacket, bytesParsed, bytesRead: rawPacket.length };
}

describe('the request line of a refused request', () => {
  it('is the method and url when the parser read past them', () => {
    const error = parseError('GET /v2/models?x=1 HTTP/9.9\r\n\r\n', 26);
    expect(refusedRequestLine(error, error.bytesRead)).toEqual({ method: 'GET', url: '/v2/models?x=1' });
  });

  it('is unknown when the parser stopped inside the url', () => {
    const error = parseError('GET /v2/models HTTP/1.1\r\n\r\n', 8);
    expect(refusedRequestLine(error, error.bytesRead)).toBeUndefined();
  });

  it('is unknown when the fault is in the method', () => {
    const error = parseError('G@T / HTTP/1.1\r\n\r\n', 7);
    expect(refusedRequestLine(error, error.bytesRead)).toBeUndefined();
  });

  it('is unknown when the read the parser failed in is not the connection’s first', () => {
    const error = parseError('GET /a HTTP/9.9\r\n\r\n', 15);
    expect(refusedRequestLine(error, error.bytesRead + 100)).toBeUndefined();
  });

  it('is unknown when the refused request was pipelined behind another in the same read', () => {
    const error = parseError('GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/9.9\r\n\r\n', 52);
    expect(refusedRequestLine(error, error.bytesRead)).toBeUndefined();
  });

  it('is unknown when the url holds a byte that is not visible ASCII', () => {
    const error = parseError('GET /a\u00e9b HTTP/9.9\r\n\r\n', 17);
    expect(refusedRequestLine(error, error.bytesRead)).toBeUndefined();
  });

  it('cuts a url longer than 256 characters', () => {
    const url = `/${'u'.repeat(1000)}`;
    const error = parseError(`GET ${url} HTTP/9.9\r\n\r\n`, url.length + 14);
    expect(refusedRequestLine(error, error.bytesRead)).toEqual({ method: 'GET', url: `${url.slice(0, 256)}…` });
  });

  it('is unknown without the bytes of the read (a head that did not arrive in time)', () => {
    expect(refusedRequestLine({}, 30)).toBeUndefined();
  });
});
