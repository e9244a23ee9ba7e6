import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { defaultTextMapGetter, SpanStatusCode, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SluiceError } from '../../../sdk/errors/index.js';
import type { LogFields, Logger } from '../../../sdk/logging/logger.js';
import { addTraceLogFields, traceLogFields } from '../../../telemetry/logging/trace-log-fields.js';
import type { ServingMetrics } from '../../../telemetry/metrics/serving-metrics.js';
import { ATTR, REQUEST_ID_HEADER } from '../../../telemetry/telemetry-names.js';
import { startServerSpan, type ServerSpan } from '../../../telemetry/tracing/server-span.js';
import { recordFailure } from '../../../telemetry/tracing/span-helpers.js';
import type { Telemetry } from '../../../telemetry/tracing/telemetry.js';
import { addRefusalLogFields, refusalInFlight, type ParserRefusal } from '../refusals/parser-refusal.js';

/** How one port observes its requests. */
export interface RequestObserverOptions {
  /** Starts a server span per request when tracing is on; undefined: no spans on this port. */
  readonly telemetry?: Telemetry;
  /** Counts error answers by code. */
  readonly metrics?: ServingMetrics;
  /** Writes one access-log line per request (info level). */
  readonly accessLog: boolean;
  /** Adds the first {@link BODY_LOG_LIMIT} bytes of each body to its access-log line. */
  readonly logRequestBodies: boolean;
}

/** The most of a request body an access-log line shows. */
const BODY_LOG_LIMIT = 4096;
/** `error.type` of a server span whose client closed the connection before the answer was sent. */
const CLIENT_CLOSED_ERROR_TYPE = 'client_closed';
/** A client's request id is echoed only when it is short printable ASCII; otherwise one is generated. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

interface RequestState {
  readonly started: number;
  readonly id: string;
  /** The route pattern, read once: Fastify's `routeOptions` builds a new object of a dozen fields at every read. */
  readonly route: string | undefined;
  readonly server: ServerSpan | undefined;
  readonly options: RequestObserverOptions;
  errorCode?: string;
  /** The client closed the connection before the answer was sent; the line and the span are written. */
  abandoned?: boolean;
  /** A streamed answer failed after its status went out: the status its failure stands for. */
  failedStatus?: number;
}

const states = new WeakMap<FastifyRequest, RequestState>();

/** The request id to echo: the client's `x-request-id` when it is short printable ASCII, else a new one. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const sent = headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** What an access-log line tells about one answered request. */
export interface AccessLogEntry {
  readonly method: string;
  readonly url: string;
  /** The route pattern, undefined for an unknown route. */
  readonly route: string | undefined;
  readonly status: number;
  readonly latencyMs: number;
  readonly requestId: string;
  readonly model?: string | undefined;
  readonly workflow?: string | undefined;
  readonly errorCode?: string | undefined;
  /** The request body, when the port logs bodies. */
  readonly body?: Buffer | undefined;
  /** The request's server span context, when it is traced. */
  readonly traceContext?: Context | undefined;
}

/**
 * The fields of an access-log line. Built as one literal with optional fields added after: spreading
 * the trace fields into the literal first made V8 add every later field the slow way, which cost a
 * traced request several microseconds.
 */
export function accessLogFields(entry: AccessLogEntry): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    method: entry.method,
    route: entry.route ?? null,
    url: entry.url,
    status: entry.status,
    latencyMs: entry.latencyMs,
    requestId: entry.requestId,
  };
  if (entry.model !== undefined) fields['model'] = entry.model;
  if (entry.workflow !== undefined) fields['workflow'] = entry.workflow;
  if (entry.errorCode !== undefined) fields['errorCode'] = entry.errorCode;
  if (entry.body !== undefined) fields['body'] = entry.body.subarray(0, BODY_LOG_LIMIT).toString('utf8');
  if (entry.traceContext !== undefined) addTraceLogFields(fields, entry.traceContext);
  return fields;
}

/** The model or workflow a route names, for access logs. */
function targetOf(request: FastifyRequest): { model?: string; workflow?: string } {
  const params = (request.params ?? {}) as Readonly<Record<string, string | undefined>>;
  const model = params['model'] ?? params['modelAndVerb']?.split(':')[0];
  if (model !== undefined) return { model };
  return params['name'] !== undefined && request.url.startsWith('/wfpredict/') ? { workflow: params['name'] } : {};
}

/** What a request's server span is named and described by. */
export interface HttpRequestLine {
  readonly method: string;
  readonly url: string;
  /** The route pattern, undefined for an unknown route. */
  readonly route: string | undefined;
  /** `http` or `https`. */
  readonly scheme: string;
  /** The client's address, when the socket knows it. */
  readonly clientAddress: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/**
 * Starts the server span of an HTTP request (named `<method> <route>`), parented on the context in its
 * `traceparent` / `tracestate` / `baggage` headers, with the HTTP attributes and the request id.
 */
export function startHttpServerSpan(telemetry: Telemetry, request: HttpRequestLine, id: string): ServerSpan | undefined {
  const name = request.route === undefined ? request.method : `${request.method} ${request.route}`;
  return startServerSpan(telemetry, name, request.headers, defaultTextMapGetter, () => serverSpanAttributes(request, id));
}

/**
 * The `status` of the access-log line of a request whose client closed the connection before its answer
 * was sent: no status went out, and this is the figure web servers log for it.
 */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Ends a request's server span with the status it was answered with (a 5xx fails it). For
 * {@link CLIENT_CLOSED_STATUS} no status code went out, so the span has none and `error.type` says why;
 * its status stays unset, as for a 4xx answer: the client's doing, not the server's failure.
 */
export function endHttpServerSpan(server: ServerSpan, status: number): void {
  if (status === CLIENT_CLOSED_STATUS) server.span.setAttribute(ATTR.errorType, CLIENT_CLOSED_ERROR_TYPE);
  else server.span.setAttribute(ATTR.httpResponseStatusCode, status);
  if (status >= 500) server.span.setStatus({ code: SpanStatusCode.ERROR });
  server.span.end();
}

/** Milliseconds since `started` (a `performance.now()` reading), to the microsecond, for access logs. */
export function latencyMsSince(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** Records on a request's span that it is answered with `error`: the exception for a 5xx, the code otherwise. */
export function noteSpanError(span: Span, error: SluiceError, status: number): void {
  if (!span.isRecording()) return;
  if (status >= 500) recordFailure(span, error);
  else span.setAttributes({ [ATTR.errorCode]: error.code, [ATTR.errorType]: error.code });
}

/** The HTTP attributes of a request's server span (set one by one: cheaper than spreading optional ones into a literal). */
function serverSpanAttributes(request: HttpRequestLine, id: string): Attributes {
  const attributes: Attributes = {};
  attributes[ATTR.httpRequestMethod] = request.method;
  const url = request.url;
  const query = url.indexOf('?');
  attributes[ATTR.urlPath] = query < 0 ? url : url.slice(0, query);
  attributes[ATTR.urlScheme] = request.scheme;
  attributes[ATTR.requestId] = id;
  if (request.route !== undefined) attributes[ATTR.httpRoute] = request.route;
  if (request.clientAddress) attributes[ATTR.clientAddress] = request.clientAddress;
  const userAgent = request.headers['user-agent'];
  if (userAgent !== undefined) attributes[ATTR.userAgent] = userAgent;
  return attributes;
}

/** The access-log fields of `request`, answered with `status` after `latencyMs`. */
function requestAccessLogFields(request: FastifyRequest, status: number, latencyMs: number, state: RequestState): Record<string, unknown> {
  const { model, workflow } = targetOf(request);
  return accessLogFields({
    method: request.method,
    url: request.url,
    route: state.route,
    status,
    latencyMs,
    requestId: state.id,
    model,
    workflow,
    errorCode: state.errorCode,
    body: state.options.logRequestBodies && Buffer.isBuffer(request.body) ? request.body : undefined,
    traceContext: state.server?.context,
  });
}

/**
 * The trace context of `request` (its server span, with the server's tracer) when the port traces: what
 * the request's hooks and controllers hand explicitly to the work they start. Undefined when tracing is
 * off or the request was not observed.
 */
export function requestTraceContext(request: FastifyRequest): Context | undefined {
  return states.get(request)?.server?.context;
}

/** The id `request` is answered with (its `x-request-id`); Fastify's own id when it was not observed. */
export function observedRequestId(request: FastifyRequest): string {
  return states.get(request)?.id ?? request.id;
}

/** `trace_id`, `span_id` and `trace_flags` of `request`'s server span, for the lines it logs; none when not traced. */
export function requestLogFields(request: FastifyRequest): LogFields {
  return traceLogFields(requestTraceContext(request));
}

/**
 * Observes every request of a port: echoes `x-request-id` (or generates one), starts the server span
 * from the caller's `traceparent` / `tracestate` / `baggage` and keeps its context with the request
 * ({@link requestTraceContext}), and when the answer is sent ends the span and writes the access-log
 * line (method, route, status, latency, model, request id) with the request's trace fields. A request
 * whose client closes the connection before the answer is sent gets its line then, with
 * {@link CLIENT_CLOSED_STATUS}, and its span ends without a status code.
 */
export function observeRequests(fastify: FastifyInstance, logger: Logger, options: RequestObserverOptions): UnroutedRequestObserver {
  const telemetry = options.telemetry?.tracing === true ? options.telemetry : undefined;
  /** Writes `request`'s access-log line and ends its span, for an answer with `status` (the parser's `refusal`, when it is one). */
  const finish = (request: FastifyRequest, state: RequestState, status: number, refusal?: ParserRefusal): void => {
    if (status !== CLIENT_CLOSED_STATUS) options.metrics?.httpAnswered(status);
    if (options.accessLog) {
      const fields = requestAccessLogFields(request, status, latencyMsSince(state.started), state);
      if (refusal !== undefined) addRefusalLogFields(fields, refusal);
      logger.info('request', fields);
    }
    if (state.server !== undefined) endHttpServerSpan(state.server, status);
  };
  /** Gives `request` its id, span and state, as it arrives. */
  const start = (request: FastifyRequest, reply: FastifyReply, route: string | undefined): RequestState => {
    const id = requestIdFrom(request.headers);
    void reply.header(REQUEST_ID_HEADER, id);
    const server =
      telemetry && startHttpServerSpan(telemetry, { method: request.method, url: request.url, route, scheme: request.protocol, clientAddress: request.ip, headers: request.headers }, id);
    const state: RequestState = { started: performance.now(), id, route, server, options };
    states.set(request, state);
    return state;
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    const state = start(request, reply, request.routeOptions.url);
    // A client that closes the connection first gets no answer, so `onResponse` never runs: the line and
    // the span are written here instead.
    reply.raw.once('close', () => {
      // Kept in the map: the error the request then fails with is still counted (`noteRequestError`).
      if (reply.raw.writableFinished || states.get(request) !== state) return;
      state.abandoned = true;
      // A streamed answer cut short by its failure: the failure, not the client, ended it.
      if (state.failedStatus !== undefined) {
        finish(request, state, state.failedStatus);
        return;
      }
      // The parser refused the rest of the request (a malformed chunk) and the connection was closed
      // after the refusal was sent: the line tells the refusal, which is already counted.
      const refusal = refusalInFlight(request.raw);
      if (refusal === undefined) {
        finish(request, state, CLIENT_CLOSED_STATUS);
        return;
      }
      state.errorCode = refusal.error.code;
      if (state.server !== undefined) noteSpanError(state.server.span, refusal.error, refusal.status);
      finish(request, state, refusal.status, refusal);
    });
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const state = states.get(request);
    if (state === undefined || state.abandoned === true) {
      done();
      return;
    }
    // Forgotten now rather than when the request object is collected: an entry of a weak map keeps its
    // value (the span and its context) alive as long as the key, and requests that outlive a young
    // collection then carried their spans into the old generation.
    states.delete(request);
    finish(request, state, state.failedStatus ?? reply.statusCode);
    done();
  });
  // Fastify runs no hooks for a request its router refused, so the line and the span come from here.
  return (request, reply) => {
    const state = start(request, reply, undefined);
    reply.raw.once('close', () => {
      if (states.get(request) !== state) return;
      states.delete(request);
      finish(request, state, reply.raw.writableFinished ? reply.statusCode : CLIENT_CLOSED_STATUS);
    });
  };
}

/**
 * Observes a request Fastify's router refused (a malformed path) before it is answered: Fastify runs
 * no hooks for it, yet it gets a request id, a server span, its error counted and an access-log line.
 */
export type UnroutedRequestObserver = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Tells the observer that `request` is answered with `error` (the error filter calls it): the code goes
 * to the access log and the error counter; the server span records the exception, and fails on a 5xx.
 */
export function noteRequestError(request: FastifyRequest, error: SluiceError, status: number): void {
  const state = states.get(request);
  // A request the parser refused while it was served fails afterwards (its body never ends): the
  // refusal is what it was answered with, and it is counted already.
  if (state === undefined || refusalInFlight(request.raw) !== undefined) return;
  state.errorCode = error.code;
  state.options.metrics?.errorAnswered(error.code, 'http');
  if (state.server !== undefined) noteSpanError(state.server.span, error, status);
}

/**
 * Tells the observer that `request`'s streamed answer failed with `error` after its status 200 went out:
 * recorded as {@link noteRequestError} records an error answer, and its access-log line, its server
 * span and the answers counted by status (`Requests5XX`, `Requests4XX`) then say `status`, the one the
 * failure would have been answered with before the stream started. Call it before the stream ends.
 */
export function noteStreamFailure(request: FastifyRequest, error: SluiceError, status: number): void {
  noteRequestError(request, error, status);
  const state = states.get(request);
  if (state !== undefined) state.failedStatus = status;
}
