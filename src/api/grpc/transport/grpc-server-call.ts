import { EventEmitter } from 'node:events';
import { constants as http2Constants, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { status, type Metadata } from '@grpc/grpc-js';
import { setLongTimeout, type LongTimeout } from '../../../timers/long-timeout.js';
import type { ArrayBackedSet } from '../../../sdk/collections/array-backed-set.js';
import { GRPC_ACCEPT_ENCODING, compressMessage, compressionNamed, decompressMessage, responseCompressionFor, type GrpcCompression } from './grpc-compression.js';
import { GrpcMessageDecoder, frameMessage } from './grpc-message-decoder.js';
import { GrpcMessageInflater } from './grpc-message-inflater.js';
import { encodeGrpcMessage, metadataFromHeaders, metadataToHeaders, parseGrpcTimeout } from './grpc-headers.js';
import { GrpcWireError } from './grpc-wire-error.js';

/** How a method's handler answers a call that expects one response (unary and client streaming). */
export type GrpcCallback = (error: unknown, value?: unknown, trailer?: Metadata) => void;

/** A method's handler, as grpc-js servers take it: the call, and a callback when one response is expected. */
export type GrpcHandler = (call: GrpcServerCall, callback: GrpcCallback) => unknown;

/** One method of a registered service. */
export interface GrpcMethod {
  /** `/package.Service/Method`. */
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly deserialize: (bytes: Buffer) => unknown;
  readonly serialize: (value: unknown) => Buffer;
  readonly handler: GrpcHandler;
}

/**
 * Runs around every call's handler (trace context, request span, auth): calls `run` to start the handler,
 * or ends the call with `call.emit('error', status)` instead.
 */
export type GrpcCallScope = (call: GrpcServerCall, run: () => void) => void;

/** Told how a call ended: its status code (CANCELLED when the client went away) and the error, if any. */
export type GrpcStatusListener = (code: number, error: unknown) => void;

/** Message size limits of a port, in bytes of a serialized message. */
export interface GrpcMessageLimits {
  readonly maxReceiveMessageBytes: number;
  readonly maxSendMessageBytes: number;
}

/** What every call of a port gets: its message limits, and who is told how each call ends. */
export interface GrpcCallOptions extends GrpcMessageLimits {
  /**
   * Told how every call ends, from the moment its stream opens (a message over the limit or a deadline
   * that passes before the handler runs included), after the call's own {@link GrpcServerCall.onStatus}
   * listener. The error is a {@link GrpcWireError} for the statuses the transport answers itself.
   */
  readonly ended?: GrpcStatusListener;
}

const OK: number = status.OK;
const CANCELLED: number = status.CANCELLED;
const NO_ERROR: number = http2Constants.NGHTTP2_NO_ERROR;
const TRUNCATED = 'the request ended inside a message (a truncated length-prefixed message)';

/** The response headers of a call; `compression`: the one its response messages may use. */
function responseHeaders(compression?: GrpcCompression): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ':status': 200, 'content-type': 'application/grpc+proto', 'grpc-accept-encoding': GRPC_ACCEPT_ENCODING };
  if (compression !== undefined) headers['grpc-encoding'] = compression;
  return headers;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function ignoreStreamError(): void {
  // A stream error (the peer reset it, the session died) ends the stream; 'close' reports the call cancelled.
}

/** The status of whatever a handler failed with, read as grpc-js reads it: `code`, `details`, `metadata`. */
function statusOfError(error: unknown, trailer: Metadata | undefined): { code: number; details: string; metadata: Metadata | undefined } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; details?: unknown; message?: unknown; metadata?: unknown };
  const numeric = typeof e.code === 'number' && Number.isInteger(e.code);
  const message = typeof e.message === 'string' ? e.message : 'Unknown Error';
  return {
    code: numeric ? (e.code as number) : status.UNKNOWN,
    details: numeric && typeof e.details === 'string' ? e.details : message,
    metadata: trailer ?? (e.metadata as Metadata | undefined),
  };
}

/**
 * One gRPC call on an HTTP/2 stream, shaped like the call objects of grpc-js so that Nest's gRPC transport
 * and `@grpc/reflection` drive it unchanged: `request`, `metadata`, `cancelled` and the `'cancelled'`
 * event, `getPath()`, `getDeadline()`, `sendMetadata()`; for streamed responses `write()` (false: wait for
 * `'drain'`), `end()` and `emit('error', status)`; for streamed requests `'data'` and `'end'` events.
 *
 * The call ends exactly once: with the handler's answer and `grpc-status` in the trailers, with a
 * trailers-only response when nothing was sent yet, or cancelled when the client resets the stream or its
 * deadline (`grpc-timeout`) passes, which emits `'cancelled'`. A client still sending when the status goes
 * out gets RST_STREAM(NO_ERROR): nothing more of its request is read.
 */
export class GrpcServerCall extends EventEmitter {
  /** The request message (unary and server-streaming methods), set before the handler runs. */
  request: unknown = undefined;
  /** The client's metadata. */
  readonly metadata: Metadata;
  /** True once the client went away or the deadline passed: nobody reads the answer any more. */
  cancelled = false;

  readonly #stream: ServerHttp2Stream;
  readonly #method: GrpcMethod;
  readonly #options: GrpcCallOptions;
  readonly #decoder: GrpcMessageDecoder;
  /** The compression of the request's messages (`grpc-encoding`), when supported. */
  readonly #compression: GrpcCompression | undefined;
  /** The compression of response messages: see {@link responseCompressionFor}. */
  readonly #responseCompression: GrpcCompression | undefined;
  /** Decompresses a streamed request's messages in order; made when the handler starts reading. */
  #inflater: GrpcMessageInflater | undefined;
  #deadline = Number.POSITIVE_INFINITY;
  #timer: LongTimeout | undefined;
  #headersSent = false;
  /** True once the status went out or the stream is gone: nothing more is sent. */
  #ended = false;
  #handlerStarted = false;
  /** True once the handler itself was called (after the scope, which may check auth first). */
  #invoked = false;
  /** True once the server is shutting down and the request side of a streamed request was ended for it. */
  #draining = false;
  /** True when request bytes came (or were cut short) that the handler will never see, because of {@link drain}. */
  #unread = false;
  /** Why a streamed request could not be read on (see #endRequest): the status the call ends with. */
  #requestError: GrpcWireError | undefined;
  /** The request message of a unary or server-streaming call, whether it is compressed, and how many came. */
  #message: Buffer | undefined;
  #messageCompressed = false;
  #messages = 0;
  readonly #scope: GrpcCallScope | undefined;
  #onStatus: GrpcStatusListener | undefined;
  /** Messages {@link serializedSize} serialized, kept for their {@link write}. */
  #serialized: WeakMap<object, Buffer> | undefined;

  /**
   * `live` holds the call until its stream closes, for {@link drain} on shutdown; `rawHeaders` are the
   * header fields as received (names and values in turn), which keep the repeats `headers` drops.
   */
  constructor(
    stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    method: GrpcMethod,
    options: GrpcCallOptions,
    scope?: GrpcCallScope,
    live?: ArrayBackedSet<GrpcServerCall>,
    rawHeaders?: readonly string[],
  ) {
    super();
    this.#stream = stream;
    this.#method = method;
    this.#options = options;
    this.#scope = scope;
    const encoding = headerValue(headers['grpc-encoding']);
    this.#decoder = new GrpcMessageDecoder(options.maxReceiveMessageBytes, encoding);
    this.#compression = compressionNamed(encoding);
    this.#responseCompression = responseCompressionFor(encoding, headerValue(headers['grpc-accept-encoding']));
    this.metadata = metadataFromHeaders(headers, rawHeaders);
    stream.on('error', ignoreStreamError);
    stream.once('close', () => {
      live?.delete(this);
      this.#onClose();
    });
    live?.add(this);
    const timeout = headers['grpc-timeout'];
    if (typeof timeout === 'string') this.#startDeadline(timeout);
  }

  /**
   * `emit('error', status)` ends the call with that status (as grpc-js calls do; Nest's streaming methods
   * end calls so), then reaches any 'error' listener. Other events are plain events.
   */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'error') return super.emit(event, ...args);
    this.#fail(args[0]);
    return this.listenerCount('error') > 0 ? super.emit(event, ...args) : true;
  }

  /**
   * Reads the request and runs the handler: at once for streamed requests (whose messages are read once the
   * handler listens), after the one message otherwise.
   */
  start(): void {
    if (this.#ended) return;
    const stream = this.#stream;
    if (this.#method.responseStream) this.#forwardDrain();
    if (this.#method.requestStream) {
      this.#run();
      return;
    }
    stream.on('data', (chunk: Buffer) => {
      this.#onUnaryChunk(chunk);
    });
    stream.once('end', () => {
      this.#onUnaryEnd();
    });
  }

  /** `/package.Service/Method`. */
  getPath(): string {
    return this.#method.path;
  }

  /** When the client's deadline passes, in ms since the epoch; Infinity when it set none. */
  getDeadline(): number {
    return this.#deadline;
  }

  /** The client's address, `host:port`. */
  getPeer(): string {
    const socket = this.#stream.session?.socket;
    if (socket?.remoteAddress === undefined) return 'unknown';
    return socket.remotePort === undefined ? socket.remoteAddress : `${socket.remoteAddress}:${String(socket.remotePort)}`;
  }

  /** Tells `listener` (one per call) how the call ends. */
  onStatus(listener: GrpcStatusListener): void {
    this.#onStatus = listener;
  }

  /** Sends the response headers with `metadata` (once; the first message sends them otherwise). */
  sendMetadata(metadata?: Metadata): void {
    if (this.#headersSent || this.#isGone()) return;
    this.#headersSent = true;
    const headers = responseHeaders(this.#responseCompression);
    if (metadata) Object.assign(headers, metadataToHeaders(metadata));
    this.#stream.respond(headers, { waitForTrailers: true });
  }

  /** The most bytes a response message may serialize to (`grpc.maxSendMessageBytes`). */
  get maxSendMessageBytes(): number {
    return this.#options.maxSendMessageBytes;
  }

  /**
   * The bytes `message` serializes to, for a handler to answer otherwise when it is over
   * {@link maxSendMessageBytes} (writing it would end the call RESOURCE_EXHAUSTED). A message that fits
   * is kept serialized, and {@link write} of it (unchanged) sends those bytes without
   * serializing it again. Undefined when `message` does not serialize (its write ends the call INTERNAL).
   */
  serializedSize(message: object): number | undefined {
    let bytes: Buffer;
    try {
      bytes = this.#method.serialize(message);
    } catch {
      return undefined;
    }
    if (bytes.byteLength <= this.#options.maxSendMessageBytes) (this.#serialized ??= new WeakMap()).set(message, bytes);
    return bytes.byteLength;
  }

  /** True while the response stream's buffer is full: a writer should wait for `'drain'`. */
  get needsDrain(): boolean {
    return this.#stream.writableNeedDrain;
  }

  /** Sends one message of a streamed response; false when the stream's buffer is full (wait for `'drain'`). */
  write(message: unknown): boolean {
    if (this.#isGone()) return true;
    const framed = this.#frame(message);
    if (framed === undefined) return true;
    this.sendMetadata();
    return this.#stream.write(framed);
  }

  /**
   * Ends a streamed response with status OK and `trailer`; instead with the status of a request message
   * that could not be read, or UNAVAILABLE when the server stopped reading the client's messages to shut
   * down and some were left unread.
   */
  end(trailer?: Metadata): void {
    if (this.#requestError !== undefined) {
      this.#fail(this.#requestError);
      return;
    }
    if (this.#unread) {
      this.#fail(new GrpcWireError('SLUICE_SERVER_SHUTTING_DOWN', 'the server shut down before reading every request message of this stream; send the unanswered ones again'));
      return;
    }
    this.#sendStatus(status.OK, '', trailer);
  }

  /**
   * The server is shutting down: the call ends without waiting on the client. A call whose handler has not
   * been called (still reading its one request message, or in its auth check) answers UNAVAILABLE; a streamed request stops being read, and the
   * handler hears `'end'` as if the client had half-closed, so it answers what it has and ends the call.
   */
  drain(): void {
    if (this.#ended) return;
    if (!this.#invoked) {
      this.#fail(new GrpcWireError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and did not run this call; send it again'));
      return;
    }
    if (!this.#method.requestStream || this.#draining || this.#requestError !== undefined || this.#stream.readableEnded) return;
    this.#draining = true;
    this.#unread = this.#decoder.midMessage;
    if (this.#inflater === undefined) {
      this.emit('end');
      return;
    }
    // Messages still being decompressed came whole: they are answered before the end. Bytes held back
    // meanwhile are read now, to be counted as unread.
    this.#stream.resume();
    this.#inflater.end();
  }

  #run(): void {
    this.#handlerStarted = true;
    if (this.#scope === undefined) this.#invoke();
    else {
      this.#scope(this, () => {
        this.#invoke();
      });
    }
  }

  #invoke(): void {
    if (this.#ended) return;
    this.#invoked = true;
    const callback: GrpcCallback = (error, value, trailer) => {
      if (error !== null && error !== undefined) this.#fail(error, trailer);
      else this.#answer(value, trailer);
    };
    try {
      const result = this.#method.handler(this, callback);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          this.#fail(error);
        });
      }
    } catch (error) {
      this.#fail(error);
    }
    if (this.#method.requestStream) this.#readStreamedRequest();
  }

  /**
   * Starts reading a streamed request, once the handler listens: until then the stream holds what arrives
   * (HTTP/2 flow control stops the client), since a message emitted before, while the scope checked auth
   * say, would be lost.
   */
  #readStreamedRequest(): void {
    if (this.#ended) return;
    const stream = this.#stream;
    const inflater = new GrpcMessageInflater(this.#compression, this.#options.maxReceiveMessageBytes, {
      message: this.#onInflatedMessage,
      refused: (error) => {
        this.#refuseMessage(error);
      },
      end: () => {
        if (!this.#ended) this.emit('end');
      },
      idle: () => {
        if (!this.#ended && !this.#draining && this.#requestError === undefined) stream.resume();
      },
    });
    this.#inflater = inflater;
    stream.on('data', (chunk: Buffer) => {
      this.#onStreamedChunk(chunk);
    });
    stream.once('end', () => {
      if (this.#ended || this.#draining || this.#requestError !== undefined) return;
      if (this.#decoder.midMessage) this.#endRequest(new GrpcWireError('SLUICE_REQUEST_INVALID', TRUNCATED, 'unreadable-call'));
      else inflater.end();
    });
  }

  /**
   * A streamed request that cannot be read on (a message over the limit, a stream that ends inside one):
   * nothing more of it is read, and the handler hears `'end'` as if the client had half-closed, once the
   * messages read before it are handed on, so that they are still answered; the call then ends with
   * `error` (see {@link end}) rather than at once, which would drop those answers.
   */
  #endRequest(error: GrpcWireError): void {
    this.#requestError = error;
    // Flow control then holds back a client still sending (the body of a message over the limit, say).
    this.#stream.pause();
    if (this.#inflater === undefined) this.emit('end');
    else this.#inflater.end();
  }

  /** A streamed request's message that does not decompress or decode: as {@link endRequest}, and the messages after it are dropped. */
  #refuseMessage(error: GrpcWireError): void {
    this.#inflater?.discard();
    this.#endRequest(error);
  }

  #onUnaryChunk(chunk: Buffer): void {
    if (this.#ended) return;
    try {
      this.#decoder.push(chunk, this.#onUnaryMessage);
    } catch (error) {
      this.#fail(error);
    }
  }

  #onUnaryEnd(): void {
    if (!this.#endOfRequest()) return;
    const message = this.#message;
    this.#message = undefined;
    if (message === undefined || this.#messages !== 1) {
      this.#fail(new GrpcWireError('SLUICE_REQUEST_INVALID', `${this.#method.path} takes exactly one request message; received ${String(this.#messages)}`, 'unsupported-call'));
      return;
    }
    // The decoder refuses a compressed message on a call without a supported compression.
    if (!this.#messageCompressed || this.#compression === undefined) {
      this.#onUnaryRequest(message);
      return;
    }
    let inflated: Buffer | Promise<Buffer>;
    try {
      inflated = decompressMessage(this.#compression, message, this.#options.maxReceiveMessageBytes);
    } catch (error) {
      this.#fail(error);
      return;
    }
    if (inflated instanceof Promise) {
      inflated.then(
        (bytes) => {
          this.#onUnaryRequest(bytes);
        },
        (error: unknown) => {
          this.#fail(error);
        },
      );
    } else this.#onUnaryRequest(inflated);
  }

  /** Runs the handler on the request message of a unary or server-streaming call, decompressed. */
  #onUnaryRequest(message: Buffer): void {
    // The call may have ended while its message was decompressed on the thread pool.
    if (this.#ended) return;
    try {
      this.request = this.#deserialize(message);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#run();
  }

  readonly #onUnaryMessage = (message: Buffer, compressed: boolean): void => {
    this.#message = message;
    this.#messageCompressed = compressed;
    this.#messages++;
  };

  #onStreamedChunk(chunk: Buffer): void {
    if (this.#ended || this.#requestError !== undefined) return;
    if (this.#draining) {
      this.#unread = true;
      return;
    }
    try {
      this.#decoder.push(chunk, this.#onStreamedMessage);
    } catch (error) {
      if (error instanceof GrpcWireError) this.#endRequest(error);
      else this.#fail(error);
    }
  }

  readonly #onStreamedMessage = (bytes: Buffer, compressed: boolean): void => {
    // A message the inflater refused stops the messages after it in the same chunk.
    if (this.#requestError !== undefined) return;
    // Waiting on the thread pool: the stream is held back (flow control) until the inflater is idle.
    if (this.#inflater?.push(bytes, compressed) === false) this.#stream.pause();
  };

  /** A message of a streamed request, decompressed; those after a refused one never come here. */
  readonly #onInflatedMessage = (bytes: Buffer): void => {
    if (this.#ended) return;
    try {
      this.emit('data', this.#deserialize(bytes));
    } catch (error) {
      if (error instanceof GrpcWireError) this.#refuseMessage(error);
      else this.#fail(error);
    }
  };

  /** Checks the request ended on a message boundary; false (and the call failed) otherwise or when over. */
  #endOfRequest(): boolean {
    if (this.#ended) return false;
    if (this.#decoder.midMessage) {
      this.#fail(new GrpcWireError('SLUICE_REQUEST_INVALID', TRUNCATED, 'unreadable-call'));
      return false;
    }
    return true;
  }

  #deserialize(bytes: Buffer): unknown {
    try {
      return this.#method.deserialize(bytes);
    } catch {
      throw new GrpcWireError('SLUICE_REQUEST_INVALID', 'Error deserializing request', 'unreadable-call');
    }
  }

  #frame(message: unknown): Buffer | undefined {
    let bytes: Buffer;
    const kept = this.#serialized !== undefined && typeof message === 'object' && message !== null ? this.#serialized.get(message) : undefined;
    if (kept !== undefined) {
      this.#serialized?.delete(message as object);
      bytes = kept;
    } else {
      try {
        bytes = this.#method.serialize(message);
      } catch {
        this.#fail(new GrpcWireError('SLUICE_INTERNAL', 'Error serializing response'));
        return undefined;
      }
    }
    if (bytes.byteLength > this.#options.maxSendMessageBytes) {
      this.#fail(new GrpcWireError('SLUICE_RESPONSE_TOO_LARGE', `Sent message larger than max (${String(bytes.byteLength)} vs. ${String(this.#options.maxSendMessageBytes)})`));
      return undefined;
    }
    const compressed = this.#responseCompression === undefined ? undefined : compressMessage(this.#responseCompression, bytes);
    return compressed === undefined ? frameMessage(bytes) : frameMessage(compressed, true);
  }

  #answer(value: unknown, trailer: Metadata | undefined): void {
    if (this.#isGone()) return;
    if (this.#requestError !== undefined) {
      this.#fail(this.#requestError);
      return;
    }
    const framed = this.#frame(value);
    if (framed === undefined) return;
    this.sendMetadata();
    this.#finish(trailer ? { 'grpc-status': '0', ...metadataToHeaders(trailer) } : { 'grpc-status': '0' }, framed);
    this.#tellEnded(OK, undefined);
  }

  #fail(error: unknown, trailer?: Metadata): void {
    const { code, details, metadata } = error instanceof GrpcWireError ? error : statusOfError(error, trailer);
    this.#sendStatus(code, details, metadata, error);
  }

  #sendStatus(code: number, details: string, metadata?: Metadata, error?: unknown): void {
    if (this.#isGone()) return;
    const trailers: OutgoingHttpHeaders = { 'grpc-status': String(code), ...metadataToHeaders(metadata) };
    if (details !== '') trailers['grpc-message'] = encodeGrpcMessage(details);
    if (this.#headersSent) {
      this.#finish(trailers);
    } else {
      this.#end();
      this.#stream.respond({ ...responseHeaders(), ...trailers }, { endStream: true });
      this.#stopReading();
    }
    this.#tellEnded(code, error);
    // A call that ends with an error before its handler finished is over for the handler too.
    if (code !== OK && this.#handlerStarted) this.#cancel();
  }

  #tellEnded(code: number, error: unknown): void {
    this.#onStatus?.(code, error);
    this.#options.ended?.(code, error);
  }

  #finish(trailers: OutgoingHttpHeaders, last?: Buffer): void {
    this.#end();
    const stream = this.#stream;
    stream.once('wantTrailers', () => {
      stream.sendTrailers(trailers);
      this.#stopReading();
    });
    if (last === undefined) stream.end();
    else stream.end(last);
  }

  #end(): void {
    this.#ended = true;
    this.#timer?.clear();
  }

  /**
   * After the status: a client still sending (a refused message it is still uploading, a stream it has not
   * half-closed) is told with RST_STREAM(NO_ERROR), sent after the response, that nothing more is read, so
   * it stops sending and the stream does not stay open (which would also hold up a graceful shutdown).
   */
  #stopReading(): void {
    const stream = this.#stream;
    if (stream.readableEnded || stream.closed) return;
    // Not at once: nghttp2 sends a reset ahead of headers still queued, and the client would lose the status.
    setImmediate(() => {
      if (!stream.closed) stream.close(NO_ERROR);
    });
  }

  /** True once nothing can be sent; notices a stream destroyed before its 'close' event. */
  #isGone(): boolean {
    if (!this.#ended && (this.#stream.destroyed || this.#stream.closed)) this.#onClose();
    return this.#ended;
  }

  #onClose(): void {
    if (this.#ended) return;
    this.#end();
    this.#tellEnded(CANCELLED, undefined);
    this.#cancel();
  }

  #cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emit('cancelled', 'cancelled');
  }

  #startDeadline(header: string): void {
    const timeoutMs = parseGrpcTimeout(header);
    if (timeoutMs === undefined) {
      this.#fail(new GrpcWireError('SLUICE_REQUEST_INVALID', `Invalid grpc-timeout value "${header}"`, 'unreadable-call'));
      return;
    }
    this.#deadline = Date.now() + timeoutMs;
    // A zero timeout has passed already: the call must not run, even if it would finish before a timer fires.
    if (timeoutMs <= 0) {
      this.#expire();
      return;
    }
    // A deadline past what one timer holds (about 24.8 days) is waited for in steps.
    this.#timer = setLongTimeout(() => {
      this.#expire();
    }, timeoutMs);
  }

  #expire(): void {
    this.#fail(new GrpcWireError('SLUICE_RESPONSE_TIMEOUT', 'Deadline exceeded'));
    this.#cancel();
  }

  #forwardDrain(): void {
    this.#stream.on('drain', () => this.emit('drain'));
  }
}
