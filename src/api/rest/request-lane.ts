import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from '../../sdk/logging/logger.js';
import type { RequestObserverOptions } from './observation/request-observer.js';
import type { AuthGuardOptions } from './auth/auth-guard.hook.js';
import type { ConnectionTracker } from './connection-tracker.js';

/** Answers some requests of a port before its web framework sees them; `serve` is false for the rest. */
export interface RequestLane {
  /** Takes `request` and answers it (true), or leaves it to the framework (false) without touching it. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
}

/** What a lane shares with the port it runs on. */
export interface LaneContext {
  /** The port's logger (access-log lines, failures). */
  readonly logger: Logger;
  readonly observe: RequestObserverOptions;
  readonly maxRequestSizeBytes: number;
  readonly connections: ConnectionTracker;
  /** The port's auth guard, when it has one. */
  readonly auth: AuthGuardOptions | undefined;
  /** True once the port is shutting down. */
  readonly closing: () => boolean;
}

/**
 * Puts `lane` in front of `server`'s request listeners (the web framework's): each request goes to the
 * lane first, and to the framework only when the lane leaves it.
 */
export function putLaneInFront(server: Server, lane: RequestLane): void {
  const behind = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (lane.serve(request, response)) return;
    for (const listener of behind) listener.call(server, request, response);
  });
}
