import { randomBytes } from 'node:crypto';
import { deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import {
  RESPONSE_COMPRESSION_MAX_BYTES,
  RESPONSE_COMPRESSION_MIN_BYTES,
  compressMessage,
  compressionNamed,
  decompressMessage,
  responseCompressionFor,
} from '../../../../../src/api/grpc/transport/grpc-compression.js';

const compressors = { gzip: gzipSync, deflate: deflateSync } as const;
const LIMIT = 1 << 20;

/** `bytes` compressed with `compression`, as a client would send them. */
const packed = (compression: 'gzip' | 'deflate', bytes: Buffer): Buffer => compressors[compression](bytes);


describe('compressionNamed', () => {
  it('reads gzip and deflate, whatever the case, and nothing else', () => {
    expect(['gzip', 'deflate', ' GZip ', 'identity', 'snappy', '', undefined].map(compressionNamed)).toEqual(['gzip', 'deflate', 'gzip', undefined, undefined, undefined, undefined]);
  });
});

describe('responseCompressionFor', () => {
  it('answers in the request’s compression when the client accepts it', () => {
    expect(responseCompressionFor('gzip', 'identity,deflate,gzip')).toBe('gzip');
    expect(responseCompressionFor('deflate', 'identity, deflate')).toBe('deflate');
  });

  it('answers uncompressed when the request is not compressed, or the client does not list its compression', () => {
    expect(responseCompressionFor(undefined, 'identity,deflate,gzip')).toBeUndefined();
    expect(responseCompressionFor('identity', 'identity,deflate,gzip')).toBeUndefined();
    expect(responseCompressionFor('gzip', 'identity,deflate')).toBeUndefined();
    expect(responseCompressionFor('gzip', undefined)).toBeUndefined();
  });
});

describe('decompressMessage', () => {
  it.each(['gzip', 'deflate'] as const)('inflates a small %s message at once', (compression) => {
    const inflated = decompressMessage(compression, packed(compression, Buffer.from('hello')), LIMIT);
    expect(Buffer.isBuffer(inflated) ? inflated.toString() : inflated).toBe('hello');
  });

  it.each(['gzip', 'deflate'] as const)('inflates a large %s message on the thread pool', async (compression) => {
    const message = randomBytes(64 * 1024);
    const inflated = decompressMessage(compression, packed(compression, message), LIMIT);
    expect(inflated).toBeInstanceOf(Promise);
    expect((await inflated).equals(message)).toBe(true);
  });

  it('inflates a small message that inflates past what the event loop takes on on the thread pool, up to the limit', async () => {
    const message = Buffer.alloc(512 * 1024, 7);
    const compressed = packed('gzip', message);
    expect(compressed.length).toBeLessThan(16 * 1024);
    const inflated = decompressMessage('gzip', compressed, LIMIT);
    expect(inflated).toBeInstanceOf(Promise);
    expect((await inflated).equals(message)).toBe(true);
  });

  it('takes a message that inflates to exactly the limit', async () => {
    expect((await decompressMessage('gzip', packed('gzip', Buffer.alloc(1024)), 1024)).length).toBe(1024);
  });

  it.each([
    ['a small gzip bomb, refused on the event loop', 'gzip', 1024 + 1],
    ['a small deflate bomb, refused on the event loop', 'deflate', 1024 + 1],
  ] as const)('refuses %s with RESOURCE_EXHAUSTED naming the limit', (_name, compression, size) => {
    expect(() => decompressMessage(compression, packed(compression, Buffer.alloc(size)), 1024)).toThrow(
      expect.objectContaining({
        code: status.RESOURCE_EXHAUSTED,
        details: `Received ${compression}-compressed message that decompresses to more than 1024 bytes, the limit (grpc.maxReceiveMessageBytes); send a smaller message, or raise the limit`,
        sluiceCode: 'SLUICE_REQUEST_TOO_LARGE',
      }),
    );
  });

  it('refuses a large gzip bomb (64 MiB of zeros in 64 KiB) on the thread pool, with RESOURCE_EXHAUSTED', async () => {
    const bomb = gzipSync(Buffer.alloc(64 << 20));
    const inflated = decompressMessage('gzip', bomb, LIMIT);
    expect(inflated).toBeInstanceOf(Promise);
    await expect(inflated).rejects.toMatchObject({ code: status.RESOURCE_EXHAUSTED, sluiceCode: 'SLUICE_REQUEST_TOO_LARGE' });
  });

  it.each([
    ['bytes that are not gzip', 'gzip', Buffer.from('not compressed at all'), 'incorrect header check'],
    ['a gzip message cut short', 'gzip', packed('gzip', Buffer.from('hello world')).subarray(0, 12), 'unexpected end of file'],
    ['bytes that are not deflate', 'deflate', Buffer.from('not compressed at all'), 'incorrect header check'],
  ] as const)('refuses %s with INTERNAL, saying why', (_name, compression, bytes, reason) => {
    expect(() => decompressMessage(compression, bytes, LIMIT)).toThrow(
      expect.objectContaining({
        code: status.INTERNAL,
        details: `Received ${compression}-compressed message that does not decompress (${reason}); compress each message with the grpc-encoding the call names, or send it uncompressed`,
        sluiceCode: 'SLUICE_REQUEST_INVALID',
      }),
    );
  });

  it('refuses a large corrupt message on the thread pool with INTERNAL', async () => {
    const corrupt = packed('gzip', randomBytes(64 * 1024));
    corrupt.fill(0, 100, 200);
    await expect(decompressMessage('gzip', corrupt, LIMIT)).rejects.toMatchObject({ code: status.INTERNAL, sluiceCode: 'SLUICE_REQUEST_INVALID' });
  });
});

describe('compressMessage', () => {
  it.each([
    ['gzip', gunzipSync],
    ['deflate', inflateSync],
  ] as const)('compresses a message that shrinks with %s', (compression, inflate) => {
    const message = Buffer.from('abc'.repeat(1000));
    const compressed = compressMessage(compression, message);
    expect(compressed?.length).toBeLessThan(message.length);
    expect(inflate(compressed as Buffer).equals(message)).toBe(true);
  });

  it('leaves uncompressed a message under the lower bound, one over the upper bound, and one that would not shrink', () => {
    expect(compressMessage('gzip', Buffer.alloc(RESPONSE_COMPRESSION_MIN_BYTES - 1))).toBeUndefined();
    expect(compressMessage('gzip', Buffer.alloc(RESPONSE_COMPRESSION_MAX_BYTES + 1))).toBeUndefined();
    expect(compressMessage('gzip', randomBytes(4096))).toBeUndefined();
    expect(compressMessage('gzip', Buffer.alloc(RESPONSE_COMPRESSION_MIN_BYTES))).toBeDefined();
  });
});
