import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A request and the response it gets. */
export interface RequestExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/**
 * Knows, for each open connection of a port, how many requests on it are in progress. At shutdown the
 * connections with none can be dropped at once: besides keep-alive connections between requests, that
 * takes connections a client opened ahead of time and never used, which the HTTP server would otherwise
 * wait for until its headers timeout.
 */
export class ConnectionTracker {
  private readonly requestsOn = new Map<Socket, number>();
  /** What to do once a connection has no request in progress, or when it closes first (see {@link whenIdle}). */
  private readonly idleWaiters = new Map<Socket, { readonly then: () => void; readonly closedFirst: () => void }>();
  /** The latest request on each connection, with its response (see {@link requestStillArriving}). */
  private readonly latest = new Map<Socket, RequestExchange>();

  /** Starts tracking `fastify`'s connections; call before it listens. */
  constructor(fastify: FastifyInstance) {
    fastify.server.on('connection', (socket: Socket) => {
      this.requestsOn.set(socket, 0);
      socket.once('close', () => {
        const waiter = this.idleWaiters.get(socket);
        this.requestsOn.delete(socket);
        this.idleWaiters.delete(socket);
        this.latest.delete(socket);
        waiter?.closedFirst();
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
    const socket = request.socket;
    if (!this.requestsOn.has(socket)) return;
    this.latest.set(socket, { request, response });
    this.adjust(socket, 1);
  }

  /**
   * The latest request on `socket` when its body has not all arrived yet: after a parse error on the
   * connection it never will.
   */
  requestStillArriving(socket: Socket): RequestExchange | undefined {
    const exchange = this.latest.get(socket);
    return exchange !== undefined && !exchange.request.complete ? exchange : undefined;
  }

  /** Counts a request on `socket` as answered. */
  requestFinished(socket: Socket): void {
    this.adjust(socket, -1);
  }

  /**
   * Calls `then` once `socket` has no request in progress: at once when it has none (or is not tracked),
   * else when its last one is answered; when it closes first, `closedFirst` instead.
   */
  whenIdle(socket: Socket, then: () => void, closedFirst: () => void): void {
    if ((this.requestsOn.get(socket) ?? 0) === 0) then();
    else this.idleWaiters.set(socket, { then, closedFirst });
  }

  /** The requests in progress whose answer has not begun (the latest of each connection). */
  unanswered(): RequestExchange[] {
    const found: RequestExchange[] = [];
    for (const [socket, exchange] of this.latest) if ((this.requestsOn.get(socket) ?? 0) > 0 && !exchange.response.headersSent) found.push(exchange);
    return found;
  }

  /** Destroys every connection that has no request in progress. */
  dropUnused(): void {
    for (const [socket, requests] of this.requestsOn) if (requests === 0) socket.destroy();
  }

  private adjust(socket: Socket, by: number): void {
    // A socket that already closed is not tracked again.
    const current = this.requestsOn.get(socket);
    if (current === undefined) return;
    const next = Math.max(0, current + by);
    this.requestsOn.set(socket, next);
    if (next > 0) return;
    // Answered: an idle keep-alive connection need not hold its last request.
    this.latest.delete(socket);
    const waiter = this.idleWaiters.get(socket);
    if (waiter === undefined) return;
    this.idleWaiters.delete(socket);
    waiter.then();
  }
}
