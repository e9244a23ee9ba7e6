import { describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { GrpcMessageDecoder, frameMessage } from '../../../../../src/api/grpc/transport/grpc-message-decoder.js';

const text = (messages: Buffer[]): string[] => messages.map((m) => m.toString());

/** The messages `decoder` hands on for `chunk`. */
function pushed(decoder: GrpcMessageDecoder, chunk: Buffer): Buffer[] {
  const messages: Buffer[] = [];
  decoder.push(chunk, (message) => messages.push(message));
  return messages;
}

describe('GrpcMessageDecoder', () => {
  it('reassembles a message whose prefix and body are split across chunks', () => {
    const decoder = new GrpcMessageDecoder(1024);
    const framed = frameMessage(Buffer.from('hello'));
    const messages = [...framed].flatMap((byte) => pushed(decoder, Buffer.from([byte])));
    expect(text(messages)).toEqual(['hello']);
    expect(decoder.midMessage).toBe(false);
  });

  it('cuts several messages out of one chunk, an empty one included', () => {
    const decoder = new GrpcMessageDecoder(1024);
    const chunk = Buffer.concat([frameMessage(Buffer.from('a')), frameMessage(Buffer.alloc(0)), frameMessage(Buffer.from('bc'))]);
    expect(text(pushed(decoder, chunk))).toEqual(['a', '', 'bc']);
  });

  it('keeps the rest of a chunk that ends inside the next message', () => {
    const decoder = new GrpcMessageDecoder(1024);
    const both = Buffer.concat([frameMessage(Buffer.from('first')), frameMessage(Buffer.from('second'))]);
    expect(text(pushed(decoder, both.subarray(0, 13)))).toEqual(['first']);
    expect(decoder.midMessage).toBe(true);
    expect(text(pushed(decoder, both.subarray(13)))).toEqual(['second']);
  });

  it('refuses a message over the limit with RESOURCE_EXHAUSTED as soon as its prefix arrives', () => {
    const decoder = new GrpcMessageDecoder(4);
    const prefix = frameMessage(Buffer.alloc(5)).subarray(0, 5);
    expect(() => pushed(decoder, prefix)).toThrow(expect.objectContaining({ code: status.RESOURCE_EXHAUSTED, details: 'Received message larger than max (5 vs. 4)' }));
  });

  it('hands on the messages of a chunk before a prefix over the limit later in it, then throws', () => {
    const decoder = new GrpcMessageDecoder(4);
    const seen: string[] = [];
    const chunk = Buffer.concat([frameMessage(Buffer.from('ab')), frameMessage(Buffer.alloc(5))]);
    expect(() => {
      decoder.push(chunk, (message) => seen.push(message.toString()));
    }).toThrow(expect.objectContaining({ code: status.RESOURCE_EXHAUSTED }));
    expect(seen).toEqual(['ab']);
  });

  it('refuses a compressed message on a call without grpc-encoding with INTERNAL, a protocol error', () => {
    const framed = frameMessage(Buffer.from('zz'));
    framed[0] = 1;
    expect(() => pushed(new GrpcMessageDecoder(1024), framed)).toThrow(
      expect.objectContaining({
        code: status.INTERNAL,
        details: 'Received a compressed message on a call without grpc-encoding; name the compression in grpc-encoding, or send the message uncompressed',
      }),
    );
  });

  it('says the call named identity when it refuses a compressed message on such a call', () => {
    const framed = frameMessage(Buffer.from('zz'));
    framed[0] = 1;
    expect(() => pushed(new GrpcMessageDecoder(1024, 'identity'), framed)).toThrow(
      expect.objectContaining({
        code: status.INTERNAL,
        details: 'Received a compressed message on a call whose grpc-encoding is identity; name the compression in grpc-encoding, or send the message uncompressed',
      }),
    );
  });

  it('refuses a compressed message in an encoding it does not support with UNIMPLEMENTED, naming the encodings it reads', () => {
    const framed = frameMessage(Buffer.from('zz'), true);
    expect(() => pushed(new GrpcMessageDecoder(1024, 'snappy'), framed)).toThrow(
      expect.objectContaining({
        code: status.UNIMPLEMENTED,
        details: 'Received a message compressed with grpc-encoding "snappy", which this server does not decompress; compress with gzip or deflate, or send messages uncompressed (grpc-accept-encoding: identity,deflate,gzip)',
        sluiceCode: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      }),
    );
  });

  it.each(['gzip', 'deflate', 'GZIP'])('hands on a message compressed with %s as it came, flagged compressed', (encoding) => {
    const decoder = new GrpcMessageDecoder(1024, encoding);
    const seen: [string, boolean][] = [];
    const chunk = Buffer.concat([frameMessage(Buffer.from('packed'), true), frameMessage(Buffer.from('plain'))]);
    decoder.push(chunk.subarray(0, 8), (message, compressed) => seen.push([message.toString(), compressed]));
    decoder.push(chunk.subarray(8), (message, compressed) => seen.push([message.toString(), compressed]));
    expect(seen).toEqual([
      ['packed', true],
      ['plain', false],
    ]);
  });

  it('holds a compressed message to the limit by its compressed length, as soon as its prefix arrives', () => {
    const prefix = frameMessage(Buffer.alloc(5), true).subarray(0, 5);
    expect(() => pushed(new GrpcMessageDecoder(4, 'gzip'), prefix)).toThrow(expect.objectContaining({ code: status.RESOURCE_EXHAUSTED, details: 'Received message larger than max (5 vs. 4)' }));
  });

  it('frames a message with a zero flags byte and its big-endian length', () => {
    expect([...frameMessage(Buffer.from('ok'))]).toEqual([0, 0, 0, 0, 2, 0x6f, 0x6b]);
  });

  it('frames a compressed message with the flags byte 1', () => {
    expect([...frameMessage(Buffer.from('ok'), true)]).toEqual([1, 0, 0, 0, 2, 0x6f, 0x6b]);
  });
});
