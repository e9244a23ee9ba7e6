import { describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { encodeGrpcMessage, metadataFromHeaders, metadataToHeaders, parseGrpcTimeout } from '../../../../../src/api/grpc/transport/grpc-headers.js';

describe('parseGrpcTimeout', () => {
  it('reads every unit as milliseconds', () => {
    expect(['1H', '2M', '3S', '40m', '5000u', '7000000n'].map(parseGrpcTimeout)).toEqual([3_600_000, 120_000, 3000, 40, 5, 7]);
  });

  it('refuses values that are not 1 to 8 digits and a unit', () => {
    expect(['', '10', 'm', '123456789m', '-5S', '1.5S', '10x'].map(parseGrpcTimeout)).toEqual(new Array(7).fill(undefined));
  });
});

describe('metadataFromHeaders', () => {
  it('keeps custom and user-agent headers and drops pseudo-headers and the transport’s own', () => {
    const metadata = metadataFromHeaders({
      ':path': '/a/b',
      ':method': 'POST',
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': '1S',
      'grpc-accept-encoding': 'identity',
      'user-agent': 'grpc-node-js',
      authorization: 'Bearer x',
    });
    expect(metadata.getMap()).toEqual({ 'user-agent': 'grpc-node-js', authorization: 'Bearer x' });
  });

  it('decodes base64 `-bin` values, several when a client joined them with commas', () => {
    const metadata = metadataFromHeaders({ 'trace-bin': `${Buffer.from([1, 2]).toString('base64')}, ${Buffer.from([255]).toString('base64')}` });
    expect(metadata.get('trace-bin')).toEqual([Buffer.from([1, 2]), Buffer.from([255])]);
  });
});

describe('metadataToHeaders', () => {
  it('sends `-bin` values as base64', () => {
    const metadata = new Metadata();
    metadata.set('blob-bin', Buffer.from([0, 1, 2]));
    metadata.set('note', 'plain');
    expect(metadataToHeaders(metadata)).toEqual({ 'blob-bin': 'AAEC', note: 'plain' });
  });
});

describe('encodeGrpcMessage', () => {
  it('leaves printable ASCII as it is', () => {
    expect(encodeGrpcMessage('model `iris` (v1): not found; retry?')).toBe('model `iris` (v1): not found; retry?');
  });

  it('percent-encodes %, control characters and UTF-8 beyond ASCII', () => {
    const message = '100% of “größe”\nnext';
    const encoded = encodeGrpcMessage(message);
    expect(encoded).toBe('100%25 of %E2%80%9Cgr%C3%B6%C3%9Fe%E2%80%9D%0Anext');
    expect(decodeURIComponent(encoded)).toBe(message);
  });

  it('cuts a message longer than 1024 characters short, saying how much was left out', () => {
    const decoded = decodeURIComponent(encodeGrpcMessage(`model \`${'m'.repeat(100_000)}\` is not registered`));
    expect(decoded).toBe(`model \`${'m'.repeat(1017)}… (99002 more characters)`);
  });
});
