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
  /** Its requests in progress, oldest first (more than one when a client pipelines). */
  readonly requests: IncomingMessage[];
  /** Their responses, at the same places. */
  readonly responses: ServerResponse[];
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
 * requests alive through young-generation collections (see {@link ArrayBackedSet}). HTTP/1.1 answers a
 * connection's requests in the order they came, so the record keeps them in that order.
 */
export class ConnectionTracker {
  private readonly bySocket = new WeakMap<Socket, TrackedConnection>();
  private readonly open = new ArrayBackedSet<TrackedConnection>();
  /** Set by {@link dropEachOnceUnused}: a connection is closed as soon as its last request is answered. */
  private dropping = false;

  /** Starts tracking `fastify`'s connections; call before it listens. */
  constructor(fastify: FastifyInstance) {
    fastify.server.on('connection', (socket: Socket) => {
      const connection: TrackedConnection = { socket, requests: [], responses: [], idleWaiter: undefined };
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
      this.requestFinished(request.raw);
      done();
    });
  }

  /** Counts `request` as in progress on its connection (for requests answered outside Fastify's hooks). */
  requestStarted(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.bySocket.get(request.socket);
    if (connection === undefined) return;
    connection.requests.push(request);
    connection.responses.push(response);
  }

  /**
   * The latest request on `socket` when its body has not all arrived yet: after a parse error on the
   * connection it never will.
   */
  requestStillArriving(socket: Socket): RequestExchange | undefined {
    const connection = this.bySocket.get(socket);
    const request = connection?.requests.at(-1);
    const response = connection?.responses.at(-1);
    return request === undefined || response === undefined || request.complete ? undefined : { request, response };
  }

  /**
   * Whether the answer to `request` should say `Connection: close`: the port is stopping
   * ({@link dropEachOnceUnused}) and no request pipelined behind it has begun on its connection (or the
   * connection is gone or not tracked). When one has, the connection stays open for that one's answer,
   * and closes once it is sent.
   */
  answerClosesConnection(request: IncomingMessage): boolean {
    if (!this.dropping) return false;
    const connection = this.bySocket.get(request.socket);
    if (connection === undefined) return true;
    const { requests } = connection;
    const place = requests.indexOf(request);
    return place === -1 ? requests.length === 0 : place === requests.length - 1;
  }

  /** Counts `request` as answered. */
  requestFinished(request: IncomingMessage): void {
    // A socket that already closed is not tracked again.
    const connection = this.bySocket.get(request.socket);
    if (connection === undefined) return;
    const { requests, responses } = connection;
    const place = requests.indexOf(request);
    if (place === -1) return;
    removeAt(requests, place);
    removeAt(responses, place);
    if (requests.length > 0) return;
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
    if (connection === undefined || connection.requests.length === 0) then();
    else connection.idleWaiter = { then, closedFirst };
  }

  /** The requests in progress whose answer has not begun, each connection's in the order they came. */
  unanswered(): RequestExchange[] {
    const found: RequestExchange[] = [];
    for (const { requests, responses } of this.open) {
      requests.forEach((request, place) => {
        const response = responses[place];
        if (response !== undefined && !response.headersSent) found.push({ request, response });
      });
    }
    return found;
  }

  /**
   * Destroys every connection that has no request in progress, and from now on closes each other one once
   * its last request in progress is answered (for a port that stops).
   */
  dropEachOnceUnused(): void {
    this.dropping = true;
    for (const connection of this.open) if (connection.requests.length === 0) connection.socket.destroy();
  }

  /**
   * For a stop that stopped waiting, once each request in progress has been answered or given up on:
   * destroys at once each connection with an answer still being written (a streamed one, say), which could
   * go on for ever, and gives the others, whose answers are all written, `flushMs` to send them and close
   * (see {@link dropEachOnceUnused}) before destroying them too. A connection's answers go out in order,
   * so one destroyed under a pipelined answer not yet sent would lose it.
   */
  dropAll(flushMs: number): void {
    this.dropping = true;
    for (const connection of this.open) {
      if (connection.responses.length === 0 || connection.responses.some((response) => !response.writableEnded)) connection.socket.destroy();
    }
    setTimeout(() => {
      for (const connection of this.open) connection.socket.destroy();
    }, flushMs).unref();
  }
}

/** Removes the element at `place`, moving the later ones down, without allocating as `splice` does. */
function removeAt(elements: unknown[], place: number): void {
  elements.copyWithin(place, place + 1);
  elements.pop();
}
