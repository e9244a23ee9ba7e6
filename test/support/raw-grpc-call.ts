import { Duplex } from 'node:stream';
import { connect as connectTcp } from 'node:net';
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';

/** What a raw gRPC call received, in order, once its stream closed. */
export interface RawGrpcAnswer {
  /** `grpc-status` from the trailers, or from the only headers of a trailers-only answer. */
  readonly status: string | undefined;
  readonly message: string | undefined;
  /** `sluice-error-code` from the trailers (or the only headers). */
  readonly errorCode: string | undefined;
  /** What arrived, in order: `headers`, `data`, `trailers`, `close`. */
  readonly events: readonly string[];
  /** The RST_STREAM code the stream closed with (0: NO_ERROR, or a clean end). */
  readonly rstCode: number;
  /** The response body as received (length-prefixed messages; see {@link unframeMessages}). */
  readonly body: Buffer;
}

/** A gRPC call on a raw HTTP/2 stream, for what no gRPC library sends (half messages, streams left open). */
export interface RawGrpcCall {
  readonly stream: ClientHttp2Stream;
  /** Resolves when the stream closes. */
  readonly answer: Promise<RawGrpcAnswer>;
}

/** A plaintext HTTP/2 session to `address` (`host:port`) that ignores its own errors (the tests look at streams). */
export function rawGrpcSession(address: string): ClientHttp2Session {
  const session = connect(`http://${address}`);
  session.on('error', () => undefined);
  return session;
}

const CLIENT_PREFACE_BYTES = 24;
const FRAME_HEADER_BYTES = 9;
const HEADERS_FRAME = 1;

/** `name: value` as an HPACK literal header field without indexing (names and values under 127 bytes). */
function literalField(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
}

/**
 * A plaintext HTTP/2 session to `address` whose HEADERS frames each carry `name: value` once more after the
 * fields the request has: Node's client refuses to send a header such as `authorization` twice, which a
 * peer may still do. Requests on it must fit their headers in one HEADERS frame (no CONTINUATION).
 */
export function rawGrpcSessionRepeating(address: string, name: string, value: string): ClientHttp2Session {
  const colon = address.lastIndexOf(':');
  const socket = connectTcp(Number(address.slice(colon + 1)), address.slice(0, colon));
  const extra = literalField(name, value);
  let pending = Buffer.alloc(0);
  let prefaceLeft = CLIENT_PREFACE_BYTES;
  const rewrite = (chunk: Buffer): Buffer => {
    pending = Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    if (prefaceLeft > 0) {
      const take = Math.min(prefaceLeft, pending.length);
      out.push(pending.subarray(0, take));
      pending = pending.subarray(take);
      prefaceLeft -= take;
    }
    while (prefaceLeft === 0 && pending.length >= FRAME_HEADER_BYTES) {
      const length = pending.readUIntBE(0, 3);
      if (pending.length < FRAME_HEADER_BYTES + length) break;
      const frame = pending.subarray(0, FRAME_HEADER_BYTES + length);
      pending = pending.subarray(FRAME_HEADER_BYTES + length);
      if (frame[3] !== HEADERS_FRAME) {
        out.push(frame);
        continue;
      }
      const grown = Buffer.concat([frame, extra]);
      grown.writeUIntBE(length + extra.length, 0, 3);
      out.push(grown);
    }
    return Buffer.concat(out);
  };
  const duplex = new Duplex({
    write(chunk: Buffer, _encoding, done) {
      socket.write(rewrite(chunk), done);
    },
    read() {
      socket.resume();
    },
    final(done) {
      socket.end(done);
    },
    destroy(error, done) {
      socket.destroy();
      done(error);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    if (!duplex.push(chunk)) socket.pause();
  });
  socket.on('end', () => duplex.push(null));
  socket.on('error', (error) => duplex.destroy(error));
  const session = connect(`http://${address}`, { createConnection: () => duplex });
  session.on('error', () => undefined);
  return session;
}

/** Opens a call of `path` on `session` and writes `body` without ending the request (the test decides). */
export function openRawGrpcCall(session: ClientHttp2Session, path: string, body: Buffer, headers: Readonly<Record<string, string>> = {}): RawGrpcCall {
  const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...headers });
  const events: string[] = [];
  let status: string | undefined;
  let message: string | undefined;
  let errorCode: string | undefined;
  const read = (h: IncomingHttpHeaders): void => {
    if (typeof h['sluice-error-code'] === 'string') errorCode = h['sluice-error-code'];
    if (typeof h['grpc-status'] === 'string') status = h['grpc-status'];
    if (typeof h['grpc-message'] === 'string') message = h['grpc-message'];
  };
  stream.on('response', (h) => {
    events.push('headers');
    read(h);
  });
  stream.on('trailers', (h: IncomingHttpHeaders) => {
    events.push('trailers');
    read(h);
  });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (events.at(-1) !== 'data') events.push('data');
  });
  stream.on('error', () => undefined);
  const answer = new Promise<RawGrpcAnswer>((resolve) => {
    stream.on('close', () => {
      events.push('close');
      resolve({ status, message, errorCode, events, rstCode: stream.rstCode, body: Buffer.concat(chunks) });
    });
  });
  stream.write(body);
  return { stream, answer };
}

/** The messages of a gRPC body (length-prefixed, uncompressed), in order. */
export function unframeMessages(body: Buffer): Buffer[] {
  const messages: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length; ) {
    const length = body.readUInt32BE(at + 1);
    messages.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return messages;
}

/** Resolves once the server has read everything sent on `session` so far (its answer to a PING came back). */
export async function serverHasRead(session: ClientHttp2Session): Promise<void> {
  if (session.connecting) await new Promise((resolve) => session.once('connect', resolve));
  await new Promise<void>((resolve, reject) => {
    session.ping((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
}

/** `promise`'s value, or `'still open'` when it has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still open'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still open'>((resolve) => {
    timer = setTimeout(() => {
      resolve('still open');
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => {
    clearTimeout(timer);
  });
}
