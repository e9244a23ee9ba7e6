import { connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';

/** What a raw gRPC call received, in order, once its stream closed. */
export interface RawGrpcAnswer {
  /** `grpc-status` from the trailers, or from the only headers of a trailers-only answer. */
  readonly status: string | undefined;
  readonly message: string | undefined;
  /** What arrived, in order: `headers`, `data`, `trailers`, `close`. */
  readonly events: readonly string[];
  /** The RST_STREAM code the stream closed with (0: NO_ERROR, or a clean end). */
  readonly rstCode: number;
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

/** Opens a call of `path` on `session` and writes `body` without ending the request (the test decides). */
export function openRawGrpcCall(session: ClientHttp2Session, path: string, body: Buffer, headers: Readonly<Record<string, string>> = {}): RawGrpcCall {
  const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...headers });
  const events: string[] = [];
  let status: string | undefined;
  let message: string | undefined;
  const read = (h: IncomingHttpHeaders): void => {
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
  stream.on('data', () => {
    if (events.at(-1) !== 'data') events.push('data');
  });
  stream.on('error', () => undefined);
  const answer = new Promise<RawGrpcAnswer>((resolve) => {
    stream.on('close', () => {
      events.push('close');
      resolve({ status, message, events, rstCode: stream.rstCode });
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
