import type { IncomingMessage } from 'node:http';
import { SluiceError } from '../../../sdk/errors/index.js';
import { shortenedText } from '../../../sdk/text/shortened-text.js';
import { requestBodyMemory } from './body-memory.js';

function tooLarge(limit: number): SluiceError {
  return new SluiceError(
    'SLUICE_REQUEST_TOO_LARGE',
    `the request body is larger than the limit of ${limit} bytes; send less data per request or raise maxRequestSizeBytes`,
    { limit },
  );
}

/** The error of a body whose connection closed after `received` bytes (of `declared`, when it was given). */
function clientClosed(received: number, declared: number | undefined, cause?: unknown): SluiceError {
  const of = declared === undefined ? '' : ` of its ${declared}`;
  return new SluiceError('SLUICE_REQUEST_INVALID', `the client closed the connection after ${received}${of} body bytes`, {}, { cause });
}

/**
 * The refusal of a body sent with a content coding (gzip, br…): Sluice reads bodies as they arrive, so
 * a compressed one would fail later as malformed JSON or garbled tensors, blaming the wrong thing.
 * Undefined for no `Content-Encoding`, an empty one, or `identity`.
 */
function encodedBodyRefusal(header: string | undefined): SluiceError | undefined {
  if (header === undefined) return undefined;
  const coding = header.trim().toLowerCase();
  if (coding === '' || coding === 'identity') return undefined;
  const shown = shortenedText(coding);
  return new SluiceError(
    'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
    `the request body is sent with Content-Encoding: ${shown}, which Sluice does not decode; send it uncompressed, with no Content-Encoding (or identity)`,
    { contentEncoding: coding },
  );
}

/**
 * How many bytes past the limit an oversized body is still read (and dropped) before it is refused. The
 * refusal closes the connection; closed while the client is still sending, the connection is reset, and a
 * client that writes its whole body before it reads the answer (fetch, Python's requests, most HTTP
 * libraries) sees a broken pipe instead of the 413. Reading the rest first lets the answer through; a body
 * even larger than this is refused at once (the client may then see the reset), so a client cannot keep
 * the server reading for long. `requestReceiveTimeoutMs` bounds the time either way. It bounds as well
 * how much of a body is dropped before any other refusal decided without reading it ({@link dropUnreadBody}).
 */
export const OVERSIZED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Resolves once the rest of `stream`'s body has arrived and been dropped, or once its connection has
 * closed: true then, false (at once) when more than `bound` bytes of it arrive first; the rest is still
 * dropped as it comes.
 */
function dropRest(stream: IncomingMessage, bound: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let dropped = 0;
    const onData = (chunk: Buffer): void => {
      dropped += chunk.length;
      if (dropped <= bound) return;
      stream.removeListener('data', onData);
      resolve(false);
    };
    const ended = (): void => {
      stream.removeListener('data', onData);
      resolve(true);
    };
    stream.on('data', onData);
    stream.once('end', ended);
    stream.once('error', ended);
    stream.once('close', ended);
    stream.resume();
  });
}

/**
 * `error` once the rest of `stream`'s body (at most `bound` more bytes) has arrived and been dropped, or
 * once the connection has closed: see {@link OVERSIZED_BODY_DRAIN_BYTES}.
 */
async function refuseAfterDraining(stream: IncomingMessage, error: SluiceError, bound: number): Promise<never> {
  await dropRest(stream, bound);
  throw error;
}

/**
 * Waits, before an answer decided on a request's head alone (a refusal of its credentials, say), until
 * the rest of the body has arrived and been dropped, as the refusal of an oversized body does (see
 * {@link OVERSIZED_BODY_DRAIN_BYTES}): answered while its body is still arriving, a request either keeps
 * its connection, which then still holds a request that has no end and is refused a second time
 * (408) when its body never comes, or closes it under a client that is still sending, which resets it, so
 * that a client that writes its whole request before it reads sees the reset instead of the answer. A
 * body that never comes is answered 408 by `requestReceiveTimeoutMs`, the request's one answer.
 * Resolves true when the body is whole (at once when it already was); false, at once, when more than
 * {@link OVERSIZED_BODY_DRAIN_BYTES} of it are declared or arrive, or when its connection closed first:
 * the answer must then close the connection.
 */
export async function dropUnreadBody(request: IncomingMessage): Promise<boolean> {
  if (request.complete) return true;
  if (request.destroyed || Number(request.headers['content-length']) > OVERSIZED_BODY_DRAIN_BYTES) return false;
  return (await dropRest(request, OVERSIZED_BODY_DRAIN_BYTES)) && request.complete;
}

/**
 * Reads a request body of at most `limit` bytes. With `alignAt` (the binary tensor extension's header
 * length), the bytes after the header start on an 8-byte boundary, so tensors need no copy. A body
 * larger than the limit fails with `SLUICE_REQUEST_TOO_LARGE` once the rest of it (up to
 * {@link OVERSIZED_BODY_DRAIN_BYTES} past the limit) has been read and dropped, so that the client can
 * read the answer; a body cut short,
 * or a connection closed before the body has arrived, with `SLUICE_REQUEST_INVALID`; a body with a
 * `Content-Encoding` other than `identity`, with `SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE` once it has been
 * dropped unread (as an oversized one is, bounded by {@link OVERSIZED_BODY_DRAIN_BYTES}).
 */
export function readBody(stream: IncomingMessage, limit: number, alignAt?: number): Promise<Buffer> {
  const declared = Number(stream.headers['content-length']);
  const known = Number.isSafeInteger(declared) && declared >= 0;
  const encoded = encodedBodyRefusal(stream.headers['content-encoding']);
  if (encoded !== undefined) {
    if (stream.destroyed || (known && declared > OVERSIZED_BODY_DRAIN_BYTES)) return Promise.reject(encoded);
    return refuseAfterDraining(stream, encoded, OVERSIZED_BODY_DRAIN_BYTES);
  }
  if (known && declared > limit) {
    if (stream.destroyed || declared - limit > OVERSIZED_BODY_DRAIN_BYTES) return Promise.reject(tooLarge(limit));
    return refuseAfterDraining(stream, tooLarge(limit), declared);
  }
  // Closed while the request waited (for its auth check, say): the stream will send nothing more.
  if (stream.destroyed) return Promise.reject(clientClosed(0, known ? declared : undefined));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let target = known ? requestBodyMemory.allocate(declared, alignAt) : undefined;
    let received = 0;
    const fail = (error: SluiceError): void => {
      stream.removeListener('data', onData);
      stream.resume();
      reject(error);
    };
    // A chunked body over the limit: what came is dropped, and so is the rest, read on to its end (as far
    // as OVERSIZED_BODY_DRAIN_BYTES past the limit), before the refusal.
    let overLimitBy: number | undefined;
    const onData = (chunk: Buffer): void => {
      if (overLimitBy !== undefined) {
        overLimitBy += chunk.length;
        if (overLimitBy > OVERSIZED_BODY_DRAIN_BYTES) fail(tooLarge(limit));
        return;
      }
      if (received + chunk.length > (known ? declared : limit)) {
        if (known) {
          fail(new SluiceError('SLUICE_REQUEST_INVALID', 'the request body is longer than its Content-Length'));
          return;
        }
        chunks.length = 0;
        overLimitBy = received + chunk.length - limit;
        if (overLimitBy > OVERSIZED_BODY_DRAIN_BYTES) fail(tooLarge(limit));
        return;
      }
      if (target) chunk.copy(target, received);
      else chunks.push(chunk);
      received += chunk.length;
    };
    stream.on('data', onData);
    // The request stream fails only when the connection closes before the body has all arrived: the
    // client's doing (it gave up, or its network did), so a client error rather than the server's.
    stream.once('error', (error) => {
      stream.removeListener('data', onData);
      reject(overLimitBy !== undefined ? tooLarge(limit) : clientClosed(received, known ? declared : undefined, error));
    });
    stream.once('end', () => {
      if (overLimitBy !== undefined) {
        reject(tooLarge(limit));
        return;
      }
      if (target) {
        if (received !== declared) {
          reject(new SluiceError('SLUICE_REQUEST_INVALID', `the request body ended after ${received} of its ${declared} bytes`));
          return;
        }
        resolve(target);
        return;
      }
      target = requestBodyMemory.allocate(received, alignAt);
      let offset = 0;
      for (const chunk of chunks) {
        chunk.copy(target, offset);
        offset += chunk.length;
      }
      resolve(target);
    });
  });
}
