import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ArrayBackedSet } from '../../sdk/collections/array-backed-set.js';

/** A request and the response it gets. */
export interface RequestExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/** What the tracker knows of one open connection. */
interface TrackedConnection {
  readonly socket: Socket;
  /** Requests on it in progress. */
  requests: number;
  /** Its latest request and that request's response, while a request is in progress. */
  request: IncomingMessage | undefined;
  response: ServerResponse | undefined;
  /** What to do once it has no request in progress, or when it closes first (see {@link ConnectionTracker.whenIdle}). */
  idleWaiter: { readonly then: () => void; readonly closedFirst: () => void } | undefined;
}

/**
 * Knows, for each open connection of a port, how many requests on it are in progress. At shutdown the
 * connections with none can be dropped at once: besides keep-alive connections between requests, that
 * takes connections a client opened ahead of time and never used, which the HTTP server would otherwise
 * wait for until its headers timeout.
 *
 * Each connection has one record, made when it opens and changed in place by its requests: a request
 * adds and removes no entry of any long-lived `Map`, whose retired hash tables would otherwise keep
 * requests alive through young-generation collections (see {@link ArrayBackedSet}).
 */
export class ConnectionTracker {
  private readonly bySocket = new WeakMap<Socket, TrackedConnection>();
  private readonly open = new ArrayBackedSet<TrackedConnection>();
  /** Set by {@link dropEachOnceUnused}: a connection is closed as soon as its last request is answered. */
  private dropping = false;

  /** Starts tracking `fastify`'s connections; call before it listens. */
  constructor(fastify: FastifyInstance) {
    fastify.server.on('connection', (socket: Socket) => {
      const connection: TrackedConnection = { socket, requests: 0, request: undefined, response: undefined, idleWaiter: undefined };
      this.bySocket.set(socket, connection);
      this.open.add(connection);
      socket.once('close', () => {
        this.bySocket.delete(socket);
        this.open.delete(connection);
        connection.idleWaiter?.closedFirst();
      });
    });
    fastify.addHook('onRequest', (request, reply, done) => {
      this.requestStarted(request.raw, reply.raw);
      done();
    });
    fastify.addHook('onResponse', (request, _reply, done) => {
      this.requestFinished(request.raw.socket);
      done();
    });
  }

  /** Counts `request` as in progress on its connection (for requests answered outside Fastify's hooks). */
  requestStarted(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.bySocket.get(request.socket);
    if (connection === undefined) return;
    connection.request = request;
    connection.response = response;
    connection.requests += 1;
  }

  /**
   * The latest request on `socket` when its body has not all arrived yet: after a parse error on the
   * connection it never will.
   */
  requestStillArriving(socket: Socket): RequestExchange | undefined {
    const connection = this.bySocket.get(socket);
    const exchange = connection === undefined ? undefined : exchangeOf(connection);
    return exchange !== undefined && !exchange.request.complete ? exchange : undefined;
  }

  /**
   * Whether an answer written now on `socket` should say `Connection: close`: the port is stopping
   * ({@link dropEachOnceUnused}) and the answer's request is the only one in progress on it (or the socket
   * is gone or not tracked). When a request pipelined behind it has begun, the connection stays open for
   * that one's answer, and closes once it is sent.
   */
  answerClosesConnection(socket: Socket | null): boolean {
    if (!this.dropping) return false;
    const connection = socket === null ? undefined : this.bySocket.get(socket);
    return connection === undefined || connection.requests <= 1;
  }

  /** Counts a request on `socket` as answered. */
  requestFinished(socket: Socket): void {
    // A socket that already closed is not tracked again.
    const connection = this.bySocket.get(socket);
    if (connection === undefined) return;
    connection.requests = Math.max(0, connection.requests - 1);
    if (connection.requests > 0) return;
    // Answered: an idle keep-alive connection need not hold its last request.
    connection.request = undefined;
    connection.response = undefined;
    const waiter = connection.idleWaiter;
    connection.idleWaiter = undefined;
    waiter?.then();
    // After what was written for its requests has gone out: an answer sent before the stop began may not
    // have said `Connection: close`.
    if (this.dropping) connection.socket.end(() => connection.socket.destroy());
  }

  /**
   * Calls `then` once `socket` has no request in progress: at once when it has none (or is not tracked),
   * else when its last one is answered; when it closes first, `closedFirst` instead.
   */
  whenIdle(socket: Socket, then: () => void, closedFirst: () => void): void {
    const connection = this.bySocket.get(socket);
    if (connection === undefined || connection.requests === 0) then();
    else connection.idleWaiter = { then, closedFirst };
  }

  /** The requests in progress whose answer has not begun (the latest of each connection). */
  unanswered(): RequestExchange[] {
    const found: RequestExchange[] = [];
    for (const connection of this.open) {
      const exchange = exchangeOf(connection);
      if (connection.requests > 0 && exchange !== undefined && !exchange.response.headersSent) found.push(exchange);
    }
    return found;
  }

  /**
   * Destroys every connection that has no request in progress, and from now on closes each other one once
   * its last request in progress is answered (for a port that stops).
   */
  dropEachOnceUnused(): void {
    this.dropping = true;
    for (const connection of this.open) if (connection.requests === 0) connection.socket.destroy();
  }
}

/** The latest request of `connection` with its response, while one is in progress. */
function exchangeOf(connection: TrackedConnection): RequestExchange | undefined {
  const { request, response } = connection;
  return request === undefined || response === undefined ? undefined : { request, response };
}
