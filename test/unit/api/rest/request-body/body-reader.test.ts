import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { dropUnreadBody, OVERSIZED_BODY_DRAIN_BYTES, readBody } from '../../../../../src/api/rest/request-body/body-reader.js';

/** A request stream with the given headers that sends `chunks`. */
function request(chunks: readonly Buffer[], headers: Record<string, string> = {}): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

/** A request stream with the given headers that sends `chunks`, then fails as a connection closed by the client does. */
function abandonedRequest(chunks: readonly Buffer[], headers: Record<string, string> = {}): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    setImmediate(() => stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  });
  return stream as unknown as IncomingMessage;
}

describe('readBody', () => {
  it('reads a body with a Content-Length', async () => {
    const body = await readBody(request([Buffer.from('hel'), Buffer.from('lo')], { 'content-length': '5' }), 100);
    expect(body.toString()).toBe('hello');
  });

  it('reads a chunked body without a Content-Length', async () => {
    const body = await readBody(request([Buffer.from('ab'), Buffer.from('cd')]), 100);
    expect(body.toString()).toBe('abcd');
  });

  it('places the bytes after a binary header on an 8-byte boundary', async () => {
    const body = await readBody(request([Buffer.from('{"h":1}'), Buffer.alloc(16)], { 'content-length': '23' }), 100, 7);
    expect((body.byteOffset + 7) % 8).toBe(0);
    expect(body.subarray(0, 7).toString()).toBe('{"h":1}');
  });

  it('aligns a chunked body too', async () => {
    const body = await readBody(request([Buffer.from('{"h":12}'), Buffer.alloc(5)]), 100, 8);
    expect((body.byteOffset + 8) % 8).toBe(0);
    expect(body.length).toBe(13);
  });

  it('refuses a declared length over the limit once the rest of the body has been read and dropped', async () => {
    const stream = request([Buffer.alloc(10)], { 'content-length': '10' });
    let ended = false;
    stream.once('end', () => {
      ended = true;
    });
    await expect(readBody(stream, 4)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_TOO_LARGE',
      message: 'the request body is larger than the limit of 4 bytes; send less data per request or raise maxRequestSizeBytes',
    });
    expect(ended).toBe(true);
  });

  it('refuses at once, unread, a declared length more than OVERSIZED_BODY_DRAIN_BYTES over the limit', async () => {
    const stream = new PassThrough();
    Object.assign(stream, { headers: { 'content-length': String(4 + OVERSIZED_BODY_DRAIN_BYTES + 1) } });
    // Nothing is ever sent: the refusal must not wait for the body.
    await expect(readBody(stream as unknown as IncomingMessage, 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_TOO_LARGE' });
  });

  it('refuses a body with a content coding once the rest of it has been read and dropped', async () => {
    const stream = request([Buffer.alloc(10)], { 'content-length': '10', 'content-encoding': 'gzip' });
    let ended = false;
    stream.once('end', () => {
      ended = true;
    });
    await expect(readBody(stream, 100)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' });
    expect(ended).toBe(true);
  });

  it('refuses at once, unread, a body with a content coding declaring more than OVERSIZED_BODY_DRAIN_BYTES', async () => {
    const stream = new PassThrough();
    Object.assign(stream, { headers: { 'content-length': String(OVERSIZED_BODY_DRAIN_BYTES + 1), 'content-encoding': 'gzip' } });
    await expect(readBody(stream as unknown as IncomingMessage, 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('refuses an oversized body whose client closes the connection while it is being dropped', async () => {
    await expect(readBody(abandonedRequest([Buffer.alloc(3)], { 'content-length': '10' }), 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_TOO_LARGE' });
  });

  it('refuses a chunked body that passes the limit once it has ended, not with what came before', async () => {
    const stream = request([Buffer.alloc(3), Buffer.alloc(3), Buffer.alloc(3)]);
    let ended = false;
    stream.once('end', () => {
      ended = true;
    });
    await expect(readBody(stream, 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_TOO_LARGE' });
    expect(ended).toBe(true);
  });

  it('refuses a chunked body at once when it runs OVERSIZED_BODY_DRAIN_BYTES past the limit', async () => {
    const stream = new PassThrough();
    Object.assign(stream, { headers: {} });
    setImmediate(() => stream.write(Buffer.alloc(4 + OVERSIZED_BODY_DRAIN_BYTES + 1)));
    await expect(readBody(stream as unknown as IncomingMessage, 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_TOO_LARGE' });
  });

  it('refuses a chunked body over the limit whose client closes the connection as too large', async () => {
    await expect(readBody(abandonedRequest([Buffer.alloc(3), Buffer.alloc(3)]), 4)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_TOO_LARGE' });
  });

  it('refuses a body shorter than its Content-Length', async () => {
    await expect(readBody(request([Buffer.from('abc')], { 'content-length': '5' }), 100)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: 'the request body ended after 3 of its 5 bytes',
    });
  });

  it('refuses a body whose connection the client closes part way, as a client error', async () => {
    await expect(readBody(abandonedRequest([Buffer.from('abc')], { 'content-length': '5' }), 100)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: 'the client closed the connection after 3 of its 5 body bytes',
    });
  });

  it('says how many bytes came when a chunked body is cut off', async () => {
    await expect(readBody(abandonedRequest([Buffer.from('ab')]), 100)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: 'the client closed the connection after 2 body bytes',
    });
  });

  it('refuses at once a request whose connection closed before its body was asked for', async () => {
    const closed = new PassThrough();
    Object.assign(closed, { headers: { 'content-length': '5' } });
    closed.destroy();
    await expect(readBody(closed as unknown as IncomingMessage, 100)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: 'the client closed the connection after 0 of its 5 body bytes',
    });
  });
});

describe('dropUnreadBody', () => {
  /** A request stream that sends `chunks` and then ends, marked complete as Node's parser does. */
  function arriving(chunks: readonly Buffer[], headers: Record<string, string> = {}): IncomingMessage {
    const stream = request(chunks, headers);
    Object.assign(stream, { complete: false });
    stream.once('end', () => Object.assign(stream, { complete: true }));
    return stream;
  }

  it('resolves true once the rest of the body has arrived, and drops it', async () => {
    const stream = arriving([Buffer.alloc(10), Buffer.alloc(10)], { 'content-length': '20' });
    await expect(dropUnreadBody(stream)).resolves.toBe(true);
    expect(stream.readableEnded).toBe(true);
  });

  it('resolves true at once for a body that has all arrived', async () => {
    const stream = new PassThrough();
    Object.assign(stream, { headers: {}, complete: true });
    await expect(dropUnreadBody(stream as unknown as IncomingMessage)).resolves.toBe(true);
  });

  it('resolves false at once, unread, for a declared length over OVERSIZED_BODY_DRAIN_BYTES', async () => {
    const stream = new PassThrough();
    Object.assign(stream, { headers: { 'content-length': String(OVERSIZED_BODY_DRAIN_BYTES + 1) }, complete: false });
    await expect(dropUnreadBody(stream as unknown as IncomingMessage)).resolves.toBe(false);
  });

  it('resolves false when the client closes the connection before the body has arrived', async () => {
    const stream = abandonedRequest([Buffer.alloc(3)], { 'content-length': '10' });
    Object.assign(stream, { complete: false });
    await expect(dropUnreadBody(stream)).resolves.toBe(false);
  });
});
