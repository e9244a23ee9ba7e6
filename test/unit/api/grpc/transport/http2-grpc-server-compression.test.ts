import { randomBytes } from 'node:crypto';
import type { ClientHttp2Session } from 'node:http2';
import { deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Metadata, compressionAlgorithms, credentials, makeGenericClientConstructor, status, type Client, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import type { GrpcCallback, GrpcServerCall } from '../../../../../src/api/grpc/transport/grpc-server-call.js';
import { frameMessage } from '../../../../../src/api/grpc/transport/grpc-message-decoder.js';
import { Http2GrpcServer } from '../../../../../src/api/grpc/transport/http2-grpc-server.js';
import { openRawGrpcCall, rawGrpcSession, type RawGrpcAnswer } from '../../../../support/raw-grpc-call.js';

/** Messages are raw bytes: the test needs no protos. */
const bytes = (value: Buffer): Buffer => value;
function method(name: string, requestStream: boolean, responseStream: boolean) {
  return { path: `/test.Echo/${name}`, requestStream, responseStream, requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes };
}
const SERVICE = { Unary: method('Unary', false, false), Chat: method('Chat', true, true) } as unknown as ServiceDefinition;
const LIMIT = 256 * 1024;

/** A compressible message of `length` bytes. */
const text = (length: number): Buffer => Buffer.from('sluice '.repeat(Math.ceil(length / 7)).slice(0, length));

/** A response body's messages with their compressed flags, as received. */
function messagesOf(answer: RawGrpcAnswer): { compressed: boolean; bytes: Buffer }[] {
  const messages: { compressed: boolean; bytes: Buffer }[] = [];
  for (let at = 0; at + 5 <= answer.body.length; ) {
    const length = answer.body.readUInt32BE(at + 1);
    messages.push({ compressed: answer.body[at] === 1, bytes: answer.body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return messages;
}

describe('Http2GrpcServer: compressed messages', () => {
  const server = new Http2GrpcServer({ maxReceiveMessageBytes: LIMIT, maxSendMessageBytes: LIMIT });
  let address = '';
  let session: ClientHttp2Session;
  /** The response headers of each raw call, by the order of the calls. */
  const headersOf = new WeakMap<Promise<RawGrpcAnswer>, Record<string, unknown>>();

  /** One raw call of `path` with `headers`, the request `body` sent whole. */
  const raw = (path: string, body: Buffer, headers: Record<string, string> = {}): Promise<RawGrpcAnswer> => {
    const call = openRawGrpcCall(session, path, body, headers);
    const seen: Record<string, unknown> = {};
    call.stream.on('response', (h) => Object.assign(seen, h));
    call.stream.end();
    headersOf.set(call.answer, seen);
    return call.answer;
  };

  beforeAll(async () => {
    server.addService(SERVICE, {
      Unary: (c: GrpcServerCall, callback: GrpcCallback) => {
        callback(null, c.request);
      },
      Chat: (c: GrpcServerCall) => {
        c.on('data', (message: Buffer) => c.write(message.length > 32 ? Buffer.from(`${String(message.length)} bytes`) : Buffer.from(message.toString().toUpperCase())));
        c.on('end', () => {
          c.end();
        });
      },
    });
    address = `127.0.0.1:${String(await server.listen('127.0.0.1', 0))}`;
    session = rawGrpcSession(address);
  });
  afterAll(async () => {
    session.destroy();
    server.forceShutdown();
    await new Promise<void>((resolve) => {
      server.tryShutdown(() => {
        resolve();
      });
    });
  });

  describe('with grpc-js clients that compress', () => {
    const clients: Client[] = [];
    const clientWith = (algorithm: compressionAlgorithms): Client => {
      const client = new (makeGenericClientConstructor(SERVICE, 'Echo'))(address, credentials.createInsecure(), { 'grpc.default_compression_algorithm': algorithm });
      clients.push(client);
      return client;
    };
    const unary = (client: Client, request: Buffer): Promise<Buffer> =>
      new Promise((resolve, reject) => {
        (client as unknown as Record<string, (r: Buffer, m: Metadata, cb: (e: ServiceError | null, v?: Buffer) => void) => void>)['Unary']?.call(client, request, new Metadata(), (error, value) => {
          if (error) reject(error);
          else resolve(value ?? Buffer.alloc(0));
        });
      });
    afterAll(() => {
      for (const client of clients) client.close();
    });

    it.each([
      ['gzip', compressionAlgorithms.gzip],
      ['deflate', compressionAlgorithms.deflate],
    ])('answers %s-compressed calls: a small one, one answered compressed, one inflated on the thread pool', async (_name, algorithm) => {
      const client = clientWith(algorithm);
      const compressible = text(8 * 1024);
      const noise = randomBytes(100 * 1024);
      expect((await unary(client, Buffer.from('small'))).toString()).toBe('small');
      expect((await unary(client, compressible)).equals(compressible)).toBe(true);
      expect((await unary(client, noise)).equals(noise)).toBe(true);
    });
  });

  describe('on the wire', () => {
    it.each([
      ['gzip', gzipSync, gunzipSync],
      ['deflate', deflateSync, inflateSync],
    ] as const)('answers a %s request compressed the same way when the client accepts it, and says so in grpc-encoding', async (encoding, compress, inflate) => {
      const message = text(4096);
      const answer = raw('/test.Echo/Unary', frameMessage(compress(message), true), { 'grpc-encoding': encoding, 'grpc-accept-encoding': `identity,${encoding}` });
      const [sent] = messagesOf(await answer);
      expect(headersOf.get(answer)).toMatchObject({ 'grpc-encoding': encoding, 'grpc-accept-encoding': 'identity,deflate,gzip' });
      expect(sent?.compressed).toBe(true);
      expect(inflate(sent?.bytes ?? Buffer.alloc(0)).equals(message)).toBe(true);
      expect((await answer).status).toBe('0');
    });

    it('answers a small message of a compressed call uncompressed (flag 0), as not worth it', async () => {
      const answer = await raw('/test.Echo/Unary', frameMessage(gzipSync(Buffer.from('tiny')), true), { 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'identity,gzip' });
      expect(messagesOf(answer)).toEqual([{ compressed: false, bytes: Buffer.from('tiny') }]);
    });

    it('answers uncompressed, without grpc-encoding, when the request was not compressed or the client does not accept its compression', async () => {
      const message = text(4096);
      const plain = raw('/test.Echo/Unary', frameMessage(message), { 'grpc-accept-encoding': 'identity,deflate,gzip' });
      const notAccepted = raw('/test.Echo/Unary', frameMessage(gzipSync(message), true), { 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'identity' });
      for (const answer of [plain, notAccepted]) {
        expect(messagesOf(await answer)).toEqual([{ compressed: false, bytes: message }]);
        expect(headersOf.get(answer)?.['grpc-encoding']).toBeUndefined();
        expect(headersOf.get(answer)?.['grpc-accept-encoding']).toBe('identity,deflate,gzip');
      }
    });

    it('answers UNIMPLEMENTED to a message compressed in an encoding it does not read, listing those it reads in grpc-accept-encoding', async () => {
      const answer = raw('/test.Echo/Unary', frameMessage(Buffer.from('zz'), true), { 'grpc-encoding': 'snappy' });
      expect({ status: (await answer).status, accepts: headersOf.get(answer)?.['grpc-accept-encoding'] }).toEqual({ status: String(status.UNIMPLEMENTED), accepts: 'identity,deflate,gzip' });
    });

    it('reads uncompressed messages on a call whose grpc-encoding it does not support', async () => {
      const answer = await raw('/test.Echo/Unary', frameMessage(Buffer.from('plain')), { 'grpc-encoding': 'snappy' });
      expect({ status: answer.status, messages: messagesOf(answer) }).toEqual({ status: '0', messages: [{ compressed: false, bytes: Buffer.from('plain') }] });
    });

    it.each([
      ['on the event loop', 2 * LIMIT],
      ['on the thread pool', 64 * LIMIT],
    ])('refuses a unary gzip bomb %s with RESOURCE_EXHAUSTED naming the limit', async (_where, inflated) => {
      const answer = await raw('/test.Echo/Unary', frameMessage(gzipSync(Buffer.alloc(inflated)), true), { 'grpc-encoding': 'gzip' });
      expect({ status: answer.status, message: decodeURIComponent(answer.message ?? '') }).toEqual({
        status: String(status.RESOURCE_EXHAUSTED),
        message: `Received gzip-compressed message that decompresses to more than ${String(LIMIT)} bytes, the limit (grpc.maxReceiveMessageBytes); send a smaller message, or raise the limit`,
      });
    });

    it('answers INTERNAL to a unary message that does not decompress', async () => {
      const answer = await raw('/test.Echo/Unary', frameMessage(Buffer.from('not gzip'), true), { 'grpc-encoding': 'gzip' });
      expect(answer.status).toBe(String(status.INTERNAL));
    });

    it('hands a stream’s messages on in order when a large one is inflated on the thread pool before small ones', async () => {
      const large = randomBytes(100 * 1024);
      const body = Buffer.concat([
        frameMessage(gzipSync(Buffer.from('one')), true),
        frameMessage(gzipSync(large), true),
        frameMessage(Buffer.from('three')),
        frameMessage(gzipSync(Buffer.from('four')), true),
      ]);
      const answer = await raw('/test.Echo/Chat', body, { 'grpc-encoding': 'gzip' });
      expect(messagesOf(answer).map((m) => m.bytes.toString())).toEqual(['ONE', '102400 bytes', 'THREE', 'FOUR']);
      expect(answer.status).toBe('0');
    });

    it('answers a stream’s message still inflating on the thread pool when a length prefix over the limit follows it, then ends it RESOURCE_EXHAUSTED', async () => {
      const overLimit = Buffer.alloc(5);
      overLimit.writeUInt32BE(LIMIT + 1, 1);
      const answer = await raw('/test.Echo/Chat', Buffer.concat([frameMessage(gzipSync(randomBytes(100 * 1024)), true), overLimit]), { 'grpc-encoding': 'gzip' });
      expect(messagesOf(answer).map((m) => m.bytes.toString())).toEqual(['102400 bytes']);
      expect(answer.status).toBe(String(status.RESOURCE_EXHAUSTED));
    });

    it('answers a stream’s messages before a gzip bomb, then ends it RESOURCE_EXHAUSTED without reading on', async () => {
      const body = Buffer.concat([frameMessage(gzipSync(Buffer.from('before')), true), frameMessage(gzipSync(Buffer.alloc(64 * LIMIT)), true), frameMessage(Buffer.from('after'))]);
      const answer = await raw('/test.Echo/Chat', body, { 'grpc-encoding': 'gzip' });
      expect(messagesOf(answer).map((m) => m.bytes.toString())).toEqual(['BEFORE']);
      expect(answer.status).toBe(String(status.RESOURCE_EXHAUSTED));
    });
  });
});
