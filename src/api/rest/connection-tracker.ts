import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Knows, for each open connection of a port, how many requests on it are in progress. At shutdown the
 * connections with none can be dropped at once: besides keep-alive connections between requests, that
 * takes connections a client opened ahead of time and never used, which the HTTP server would otherwise
 * wait for until its headers timeout.
 */
export class ConnectionTracker {
  private readonly requestsOn = new Map<Socket, number>();

  /** Starts tracking `fastify`'s connections; call before it listens. */
  constructor(fastify: FastifyInstance) {
    fastify.server.on('connection', (socket: Socket) => {
      this.requestsOn.set(socket, 0);
      socket.once('close', () => this.requestsOn.delete(socket));
    });
    fastify.addHook('onRequest', (request, _reply, done) => {
      this.requestStarted(request.raw.socket);
      done();
    });
    fastify.addHook('onResponse', (request, _reply, done) => {
      this.requestFinished(request.raw.socket);
      done();
    });
  }

  /** Counts a request in progress on `socket` (for requests answered outside Fastify's hooks). */
  requestStarted(socket: Socket): void {
    this.adjust(socket, 1);
  }

  /** Counts a request on `socket` as answered. */
  requestFinished(socket: Socket): void {
    this.adjust(socket, -1);
  }

  /** Destroys every connection that has no request in progress. */
  dropUnused(): void {
    for (const [socket, requests] of this.requestsOn) if (requests === 0) socket.destroy();
  }

  private adjust(socket: Socket, by: number): void {
    // A socket that already closed is not tracked again.
    const current = this.requestsOn.get(socket);
    if (current !== undefined) this.requestsOn.set(socket, Math.max(0, current + by));
  }
}
