import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../sdk/logging/logger.js';
import { installAuthGuard, type AuthGuardOptions } from './auth/auth-guard.hook.js';
import { readBody } from './request-body/body-reader.js';
import { ConnectionTracker } from './connection-tracker.js';
import { answerShuttingDown } from './shutdown-answer.js';
import { putLaneInFront, type LaneContext, type RequestLane } from './request-lane.js';
import { ErrorResponseFilter } from './errors/error-response.filter.js';
import { answerClientError, answerFrameworkError, MAX_PATH_SEGMENT_LENGTH } from './refusals/transport-errors.js';
import { NestLoggerAdapter } from '../nest/nest-logger-adapter.js';
import { observeRequests, type RequestObserverOptions } from './observation/request-observer.js';
import { observeRefusals } from './observation/refusal-observer.js';

/**
 * How often, in milliseconds, the HTTP server looks for requests whose head, or whole request, has not
 * arrived within its timeouts, to refuse them with 408: Node's default of 30 s let a slow head hold its
 * connection up to half as long again.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** How long a request's head may take to arrive, in milliseconds (Node's default), unless the whole request must arrive sooner. */
const HEAD_TIMEOUT_MS = 60_000;

/**
 * How long, in milliseconds, the 503s written when a stop runs out of time get to go out before their
 * connections are destroyed: a pipelined one is sent only after the answer before it, a moment later. Well
 * under the second the stop then waits for its ports to close.
 */
const SHUTDOWN_ANSWER_FLUSH_MS = 200;

/** A registered route as Fastify saw it. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

/** A listening HTTP port. */
export interface HttpApp {
  readonly app: NestFastifyApplication;
  /** Every core route the app registered (plugin endpoints excluded), for the API description test. */
  readonly routes: readonly RegisteredRoute[];
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  readonly url: string;
  /** The lane in front of Fastify, when the port has one. */
  readonly lane: RequestLane | undefined;
  /** Logs the `listening` line naming the URL: the server does once start-up has loaded its models. */
  logListening(): void;
  /**
   * Stops accepting connections, drops those without a request in progress (idle keep-alive ones, and ones
   * opened ahead and never used) and resolves once the rest are done; answers in flight still go out, the last
   * of each connection with `Connection: close` so clients do not keep the connection for another request,
   * and each connection closes once its last answer has gone out.
   */
  close(): Promise<void>;
  /**
   * Drops every connection (when a bounded drain ran out of time); a request whose answer has not begun is
   * answered 503 `SLUICE_SERVER_SHUTTING_DOWN` first, and its connection is dropped once that answer, and
   * any pipelined behind it, have gone out (at most a fraction of a second later). A connection with an
   * answer still being written is dropped at once.
   */
  closeAllConnections(): void;
}

/** Where and how one port listens. */
export interface HttpAppOptions {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly maxRequestSizeBytes: number;
  /**
   * How long a client may take to send a whole request, head and body, before it is refused with 408
   * (0 = no limit). Node counts only until the request has arrived: one that is queued or running is
   * never cut off by it.
   */
  readonly requestReceiveTimeoutMs: number;
  readonly logger: Logger;
  /**
   * Adds what is not a Nest controller (plugin endpoints) once the core routes are registered and before
   * the port opens; may throw to refuse the start.
   */
  readonly extend?: (fastify: FastifyInstance, coreRoutes: readonly RegisteredRoute[]) => void;
  /** The auth guard in front of every non-public route; none means the port is open. */
  readonly auth?: AuthGuardOptions;
  /** Request ids, server spans, access log and error counts (default: request ids only). */
  readonly observe?: RequestObserverOptions;
  /** A lane that answers some requests before Fastify sees them (see `request-lane.ts`). */
  readonly lane?: (context: LaneContext) => RequestLane;
  /** Routes a path with a trailing slash (`DELETE /models/x/`) as the path without it, as TorchServe does. */
  readonly ignoreTrailingSlash?: boolean;
}

/**
 * Creates and starts one Nest application on Fastify. Every body is read as raw bytes (controllers
 * decide how to parse it, so malformed JSON gets Sluice's error, not Fastify's), bodies over the limit
 * are refused with 413, and all errors go through {@link ErrorResponseFilter}; requests refused before
 * routing (malformed HTTP, a malformed path) get Sluice's error bodies too, and are counted and logged as
 * every other request is.
 */
export async function startHttpApp(module: DynamicModule, options: HttpAppOptions): Promise<HttpApp> {
  const logger = options.logger.child({ port: options.name });
  const refuseUnrouted = answerFrameworkError(logger);
  const observe = options.observe ?? { accessLog: false, logRequestBodies: false };
  const refusals = observeRefusals(logger, observe);
  const requestTimeout = options.requestReceiveTimeoutMs;
  const adapter = new FastifyAdapter({
    // Node refuses a head timeout longer than the request timeout.
    http: { connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS, requestTimeout, headersTimeout: requestTimeout > 0 ? Math.min(HEAD_TIMEOUT_MS, requestTimeout) : HEAD_TIMEOUT_MS },
    // Fastify sets the server's own from this one (its default, 0, would turn Node's limit off).
    requestTimeout,
    bodyLimit: options.maxRequestSizeBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH, ignoreTrailingSlash: options.ignoreTrailingSlash === true },
    // Called only once the port listens, when `observeUnrouted` (below) exists.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      observeUnrouted(request, reply);
      refuseUnrouted(error, request, reply);
    },
    // Called only once the port listens, when `connections` (below) exists.
    clientErrorHandler: (error, socket) => {
      answerClientError(error, socket, connections, refusals);
    },
  });
  const fastify = adapter.getInstance();
  const routes: RegisteredRoute[] = [];
  // Core routes only: what `extend` adds (plugin endpoints) is not part of the port's own API.
  let coreRoutesOnly = true;
  fastify.addHook('onRoute', (route) => {
    if (!coreRoutesOnly) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  const observeUnrouted = observeRequests(fastify, logger, observe);
  let closing = false;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (connections.answerClosesConnection(request.raw)) void reply.header('connection', 'close');
    done(null, payload);
  });
  // Before the guard: a request it refuses is in progress until answered, so a receive timeout while its
  // body is dropped answers it (once), as any request still arriving.
  const connections = new ConnectionTracker(fastify);
  if (options.auth) installAuthGuard(fastify, options.auth);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => {
    const headerLength = Number(request.headers['inference-header-content-length']);
    readBody(payload, options.maxRequestSizeBytes, Number.isSafeInteger(headerLength) ? headerLength : undefined).then(
      (body) => {
        done(null, body);
      },
      (error: unknown) => {
        done(error instanceof Error ? error : new Error(String(error)), undefined);
      },
    );
  });
  // Nest types its options as a class, but documents and reads them as a plain object.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    bodyParser: false,
    logger: new NestLoggerAdapter(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new ErrorResponseFilter(logger, options.maxRequestSizeBytes));
  const lane = options.lane?.({ logger, observe, maxRequestSizeBytes: options.maxRequestSizeBytes, connections, auth: options.auth, closing: () => closing });
  if (lane) putLaneInFront(fastify.server, lane);
  if (options.extend) {
    await app.init();
    coreRoutesOnly = false;
    try {
      options.extend(fastify, [...routes]);
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  await app.listen(options.port, options.host);
  const address = fastify.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  return {
    logListening: () => {
      logger.info('listening', { url });
    },
    app,
    routes,
    url,
    lane,
    close: async () => {
      closing = true;
      const closed = app.close();
      connections.dropEachOnceUnused();
      await closed;
    },
    closeAllConnections: () => {
      for (const exchange of connections.unanswered()) answerShuttingDown(exchange, connections.answerClosesConnection(exchange.request));
      connections.dropAll(SHUTDOWN_ANSWER_FLUSH_MS);
    },
  };
}
