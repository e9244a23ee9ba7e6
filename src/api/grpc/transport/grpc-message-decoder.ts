import { GRPC_ACCEPT_ENCODING, compressionNamed } from './grpc-compression.js';
import { GrpcWireError } from './grpc-wire-error.js';

/** Bytes of the length prefix before each message: a flags byte and a 32-bit big-endian length. */
const PREFIX_BYTES = 5;

/** Hands on one message cut out of the body, as sent: `compressed` when its flag says so. */
export type GrpcMessageListener = (message: Buffer, compressed: boolean) => void;

/**
 * Cuts the request body of a call into gRPC messages, whatever the DATA frames look like: a message may be
 * split across chunks, and one chunk may hold several messages. A message that fits in its chunk is
 * handed on as a view of it, without a copy, still compressed if it was (see `grpc-message-inflater`).
 * Throws a {@link GrpcWireError}: RESOURCE_EXHAUSTED for a message over the limit (before its body is
 * read); for a compressed message INTERNAL when the call names no `grpc-encoding` (or `identity`: a
 * protocol error, as the gRPC spec has it), UNIMPLEMENTED when it names one that is not supported (the
 * gRPC spec's answer; every response announces the supported ones in `grpc-accept-encoding`). The
 * messages of a chunk before the one it throws for have been handed on by then; after a throw the decoder
 * is not used again.
 */
export class GrpcMessageDecoder {
  /** A length prefix split across chunks; allocated only then (most messages come whole). */
  private prefix: Buffer | undefined;
  private prefixRead = 0;
  private body: Buffer | undefined;
  private bodyRead = 0;
  /** Whether {@link body} is a compressed message. */
  private compressed = false;

  /** `encoding`: the call's `grpc-encoding` header, if any. */
  constructor(
    private readonly maxMessageBytes: number,
    private readonly encoding?: string,
  ) {}

  /** True when the bytes so far end inside a message (a body cut short by the end of the stream). */
  get midMessage(): boolean {
    return this.prefixRead > 0 || this.body !== undefined;
  }

  /**
   * Hands `onMessage` each message that `chunk` completes, in order, as it is cut out: those before a bad
   * prefix later in the chunk are not lost with it.
   */
  push(chunk: Buffer, onMessage: GrpcMessageListener): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.body === undefined) {
        let flags: number;
        let length: number;
        if (this.prefixRead === 0 && chunk.length - at >= PREFIX_BYTES) {
          flags = chunk[at] ?? 0;
          length = chunk.readUInt32BE(at + 1);
          at += PREFIX_BYTES;
        } else {
          const prefix = (this.prefix ??= Buffer.alloc(PREFIX_BYTES));
          const take = Math.min(PREFIX_BYTES - this.prefixRead, chunk.length - at);
          chunk.copy(prefix, this.prefixRead, at, at + take);
          this.prefixRead += take;
          at += take;
          if (this.prefixRead < PREFIX_BYTES) break;
          this.prefixRead = 0;
          flags = prefix[0] ?? 0;
          length = prefix.readUInt32BE(1);
        }
        this.check(flags, length);
        if (chunk.length - at >= length) {
          const message = chunk.subarray(at, at + length);
          at += length;
          onMessage(message, flags !== 0);
          continue;
        }
        this.compressed = flags !== 0;
        this.body = Buffer.allocUnsafe(length);
        this.bodyRead = 0;
      }
      const take = Math.min(this.body.length - this.bodyRead, chunk.length - at);
      chunk.copy(this.body, this.bodyRead, at, at + take);
      this.bodyRead += take;
      at += take;
      if (this.bodyRead === this.body.length) {
        const message = this.body;
        this.body = undefined;
        onMessage(message, this.compressed);
      }
    }
  }

  private check(flags: number, length: number): void {
    if (flags !== 0) {
      if (this.encoding === undefined || this.encoding === 'identity') {
        const named = this.encoding === undefined ? 'a call without grpc-encoding' : 'a call whose grpc-encoding is identity';
        throw new GrpcWireError('SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', `Received a compressed message on ${named}; name the compression in grpc-encoding, or send the message uncompressed`, 'unreadable-call');
      }
      if (compressionNamed(this.encoding) === undefined) {
        throw new GrpcWireError('SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', `Received a message compressed with grpc-encoding "${this.encoding}", which this server does not decompress; compress with gzip or deflate, or send messages uncompressed (grpc-accept-encoding: ${GRPC_ACCEPT_ENCODING})`, 'unsupported-call');
      }
    }
    if (length > this.maxMessageBytes) {
      throw new GrpcWireError('SLUICE_REQUEST_TOO_LARGE', `Received message larger than max (${String(length)} vs. ${String(this.maxMessageBytes)})`);
    }
  }
}

/** `message` with its length prefix, ready to write as the body of a call; `compressed` sets the flag. */
export function frameMessage(message: Uint8Array, compressed = false): Buffer {
  const framed = Buffer.allocUnsafe(PREFIX_BYTES + message.byteLength);
  framed[0] = compressed ? 1 : 0;
  framed.writeUInt32BE(message.byteLength, 1);
  framed.set(message, PREFIX_BYTES);
  return framed;
}
