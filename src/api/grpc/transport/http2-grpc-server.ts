import { createSecureServer, createServer, type Http2SecureServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { encodeGrpcMessage } from './grpc-headers.js';
import { GrpcWireError } from './grpc-wire-error.js';
import { ArrayBackedSet } from '../../../sdk/collections/array-backed-set.js';
import { GrpcServerCall, type GrpcCallScope, type GrpcHandler, type GrpcCallOptions, type GrpcMethod } from './grpc-server-call.js';

/**
 * The content types of gRPC with protobuf messages, the only encoding served: `application/grpc` or
 * `application/grpc+proto`, with or without parameters. gRPC-Web and other message encodings are not gRPC
 * as this server speaks it.
 */
const GRPC_PROTO_CONTENT_TYPE = /^application\/grpc(\+proto)?(\s*;.*)?$/i;

/** A PEM certificate (or chain) and its private key, for gRPC over TLS. */
export interface GrpcTls {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** How an {@link Http2GrpcServer} serves. */
export interface Http2GrpcServerOptions extends GrpcCallOptions {
  /** TLS; plaintext (h2c) without. */
  readonly tls?: GrpcTls;
  /** Runs around every call's handler. */
  readonly scope?: GrpcCallScope;
}

function ignoreSessionError(): void {
  // A session that fails (a reset connection, a peer that does not speak HTTP/2) ends; its streams close as cancelled.
}

function refuse(stream: ServerHttp2Stream, httpStatus: number): void {
  stream.on('error', ignoreSessionError);
  stream.respond({ ':status': httpStatus }, { endStream: true });
}

/**
 * A gRPC server on `node:http2`, in place of grpc-js's `Server` under Nest's gRPC transport: it offers the
 * part of that server's API that Nest and `@grpc/reflection` use (`addService`, `tryShutdown`,
 * `forceShutdown`) and {@link listen} to bind. Each call is a {@link GrpcServerCall}; messages are
 * (de)serialized by the service definitions from `@grpc/proto-loader`. Unknown methods answer
 * UNIMPLEMENTED, bodies that are not gRPC HTTP 415, other methods than POST HTTP 405.
 */
export class Http2GrpcServer {
  readonly #methods = new Map<string, GrpcMethod>();
  readonly #sessions = new ArrayBackedSet<ServerHttp2Session>();
  /** The calls whose streams are open, told to {@link GrpcServerCall.drain} on shutdown. */
  readonly #calls = new ArrayBackedSet<GrpcServerCall>();
  readonly #options: Http2GrpcServerOptions;
  #server: Http2Server | Http2SecureServer | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: Http2GrpcServerOptions) {
    this.#options = options;
  }

  /**
   * Serves every method of `service` with the function of the same name (or original name) in
   * `implementation`, called as grpc-js calls handlers: `(call, callback)`; a method without one answers
   * UNIMPLEMENTED.
   */
  addService(service: ServiceDefinition, implementation: Readonly<Record<string, unknown>>): void {
    for (const [name, attrs] of Object.entries(service)) {
      if (this.#methods.has(attrs.path)) throw new Error(`a handler for ${attrs.path} is already registered`);
      const own = implementation[name] ?? (attrs.originalName === undefined ? undefined : implementation[attrs.originalName]);
      const handler: GrpcHandler =
        typeof own === 'function'
          ? // Implementations are typed against grpc-js's call classes; ours offers the part of them that handlers use.
            (own as GrpcHandler).bind(implementation)
          : (_call, callback) => {
              callback(new GrpcWireError('SLUICE_ROUTE_NOT_FOUND', `The server does not implement the method ${attrs.path}`, 'unsupported-call'));
            };
      this.#methods.set(attrs.path, {
        path: attrs.path,
        requestStream: attrs.requestStream,
        responseStream: attrs.responseStream,
        deserialize: attrs.requestDeserialize as (bytes: Buffer) => unknown,
        serialize: attrs.responseSerialize as (value: unknown) => Buffer,
        handler,
      });
    }
  }

  /**
   * Whether the listening socket alone keeps the process running (as it does by default). Calls in
   * progress keep it running either way.
   */
  keepProcessAlive(keep: boolean): void {
    if (keep) this.#server?.ref();
    else this.#server?.unref();
  }

  /** Binds `host:port` (0: a free port) and resolves with the port bound. */
  async listen(host: string, port: number): Promise<number> {
    const settings = { maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER, maxSessionMemory: Number.MAX_SAFE_INTEGER };
    const tls = this.#options.tls;
    const server = tls ? createSecureServer({ ...settings, cert: tls.cert, key: tls.key }) : createServer(settings);
    server.on('session', (session: ServerHttp2Session) => {
      this.#sessions.add(session);
      session.on('error', ignoreSessionError);
      session.once('close', () => this.#sessions.delete(session));
      if (this.#closing) session.close();
    });
    server.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, _flags: number, rawHeaders: string[]) => {
      this.#onStream(stream, headers, rawHeaders);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    return (server.address() as AddressInfo).port;
  }

  /**
   * Refuses new connections and calls, lets the calls in progress finish, then calls `callback`. Nothing
   * waits on a client: calls not yet running answer UNAVAILABLE, streamed requests stop being read (see
   * {@link GrpcServerCall.drain}), so a client that keeps a stream open does not keep the server open.
   */
  tryShutdown(callback: (error?: Error) => void): void {
    this.#closing ??= this.#close();
    void this.#closing.then(() => {
      callback();
    });
  }

  /** Ends every connection, and so every call, at once (calls in progress are cancelled). */
  forceShutdown(): void {
    this.#closing ??= this.#close();
    for (const session of this.#sessions) session.destroy();
  }

  #close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return Promise.resolve();
    const closed = new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
    for (const call of this.#calls) call.drain();
    for (const session of this.#sessions) session.close();
    return closed;
  }

  #onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: readonly string[]): void {
    if (headers[':method'] !== 'POST') {
      refuse(stream, 405);
      return;
    }
    const contentType = headers['content-type'];
    if (typeof contentType !== 'string' || !GRPC_PROTO_CONTENT_TYPE.test(contentType)) {
      refuse(stream, 415);
      return;
    }
    const path = headers[':path'] ?? '';
    const method = this.#methods.get(path);
    if (method === undefined) {
      const unknown = new GrpcWireError('SLUICE_ROUTE_NOT_FOUND', `The server does not implement the method ${path}`, 'unsupported-call');
      stream.on('error', ignoreSessionError);
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc+proto',
          'grpc-status': String(unknown.code),
          'grpc-message': encodeGrpcMessage(unknown.details),
        },
        { endStream: true },
      );
      this.#options.ended?.(unknown.code, unknown);
      return;
    }
    new GrpcServerCall(stream, headers, method, this.#options, this.#options.scope, this.#calls, rawHeaders).start();
  }
}
