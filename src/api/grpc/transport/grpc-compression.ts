import { constants as bufferConstants } from 'node:buffer';
import { constants as zlibConstants, deflateSync, gunzip, gunzipSync, gzipSync, inflate, inflateSync, type ZlibOptions } from 'node:zlib';
import { GrpcWireError } from './grpc-wire-error.js';

/** A message compression Sluice reads and writes, by its `grpc-encoding` name. */
export type GrpcCompression = 'gzip' | 'deflate';

/** What `grpc-accept-encoding` announces on every response: the encodings a request message may use. */
export const GRPC_ACCEPT_ENCODING = 'identity,deflate,gzip';

/**
 * Compressed request messages up to this many bytes are inflated on the event loop, as long as they
 * inflate to at most {@link SYNC_INFLATED_BYTES}: a thread-pool round trip costs more than that work.
 * Larger ones are inflated on zlib's thread pool, so that one large (or very compressible) message does
 * not hold up every other call (inflating 256 KiB took 2 ms on a busy 2-vCPU machine).
 */
const SYNC_COMPRESSED_BYTES = 16 * 1024;
const SYNC_INFLATED_BYTES = 64 * 1024;

/**
 * Response messages are compressed only within these sizes (serialized bytes). Under the lower bound
 * compression saves next to nothing; above the upper one it would hold up the event loop for too long:
 * compression runs there, at zlib's fastest level, which took 6 ms for 64 KiB of FP32 tensor (shrunk by
 * a tenth) and 1.7 ms for 64 KiB of JSON (by half) on a busy 2-vCPU machine. Larger messages go
 * uncompressed, as the compressed flag of each message allows.
 */
export const RESPONSE_COMPRESSION_MIN_BYTES = 1024;
export const RESPONSE_COMPRESSION_MAX_BYTES = 16 * 1024;

/** The compression a `grpc-encoding` value names; undefined for `identity` and for encodings not supported. */
export function compressionNamed(encoding: string | undefined): GrpcCompression | undefined {
  const name = encoding?.trim().toLowerCase();
  return name === 'gzip' || name === 'deflate' ? name : undefined;
}

/**
 * The compression of a call's response messages: the one its request uses (`grpc-encoding`), when the
 * client lists it in `grpc-accept-encoding`; undefined (identity) otherwise. A client that compresses
 * asks for compression, and reads what it writes.
 */
export function responseCompressionFor(encoding: string | undefined, acceptEncoding: string | undefined): GrpcCompression | undefined {
  const compression = compressionNamed(encoding);
  if (compression === undefined || acceptEncoding === undefined) return undefined;
  return acceptEncoding.split(',').some((entry) => entry.trim().toLowerCase() === compression) ? compression : undefined;
}

/** The most zlib may write for a message of the receive limit. */
function outputCap(maxBytes: number): number {
  return Math.max(1, Math.min(maxBytes, bufferConstants.MAX_LENGTH));
}

function tooLarge(compression: GrpcCompression, maxBytes: number): GrpcWireError {
  return new GrpcWireError('SLUICE_REQUEST_TOO_LARGE', `Received ${compression}-compressed message that decompresses to more than ${String(maxBytes)} bytes, the limit (grpc.maxReceiveMessageBytes); send a smaller message, or raise the limit`);
}

function corrupt(compression: GrpcCompression, error: unknown): GrpcWireError {
  // zlib's errors come from another realm under jest: read the message, do not test the class.
  const message = (error as { message?: unknown } | null)?.message;
  const reason = typeof message === 'string' ? message : String(error);
  return new GrpcWireError('SLUICE_REQUEST_INVALID', `Received ${compression}-compressed message that does not decompress (${reason}); compress each message with the grpc-encoding the call names, or send it uncompressed`, 'unreadable-call');
}

function isOutputCapError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * The message `bytes` (compressed with `compression`) decompressed, never larger than `maxBytes`: zlib
 * stops as soon as its output passes the cap, so a small message that would inflate to gigabytes (a
 * "zip bomb") costs no more than the limit. A small message is inflated at once and returned; a larger
 * one on zlib's thread pool (a promise). Throws, or rejects with, a {@link GrpcWireError}:
 * RESOURCE_EXHAUSTED past `maxBytes`, INTERNAL for bytes that do not decompress.
 */
export function decompressMessage(compression: GrpcCompression, bytes: Buffer, maxBytes: number): Buffer | Promise<Buffer> {
  const cap = outputCap(maxBytes);
  if (bytes.byteLength <= SYNC_COMPRESSED_BYTES) {
    const syncCap = Math.min(cap, SYNC_INFLATED_BYTES);
    try {
      return (compression === 'gzip' ? gunzipSync : inflateSync)(bytes, { maxOutputLength: syncCap });
    } catch (error) {
      if (!isOutputCapError(error)) throw corrupt(compression, error);
      if (syncCap === cap) throw tooLarge(compression, maxBytes);
      // Inflates to more than the event loop should take on: again, on the thread pool, up to the limit.
    }
  }
  return new Promise((resolve, reject) => {
    (compression === 'gzip' ? gunzip : inflate)(bytes, { maxOutputLength: cap }, (error, inflated) => {
      if (error === null) resolve(inflated);
      else reject(isOutputCapError(error) ? tooLarge(compression, maxBytes) : corrupt(compression, error));
    });
  });
}

const COMPRESS_OPTIONS: ZlibOptions = { level: zlibConstants.Z_BEST_SPEED };

/**
 * `bytes` compressed with `compression` when that is worth it: for a message within
 * {@link RESPONSE_COMPRESSION_MIN_BYTES} and {@link RESPONSE_COMPRESSION_MAX_BYTES} that comes out
 * smaller; undefined otherwise (the message goes uncompressed).
 */
export function compressMessage(compression: GrpcCompression, bytes: Uint8Array): Buffer | undefined {
  if (bytes.byteLength < RESPONSE_COMPRESSION_MIN_BYTES || bytes.byteLength > RESPONSE_COMPRESSION_MAX_BYTES) return undefined;
  const compressed = (compression === 'gzip' ? gzipSync : deflateSync)(bytes, COMPRESS_OPTIONS);
  return compressed.byteLength < bytes.byteLength ? compressed : undefined;
}
