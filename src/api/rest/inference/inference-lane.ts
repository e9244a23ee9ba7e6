import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import type { Context } from '@opentelemetry/api';
import type { ModelRegistry } from '../../../serving/model-registry.js';
import type { InferenceCore } from '../../../serving/core-interfaces/inference-core.js';
import { REQUEST_ID_HEADER } from '../../../telemetry/telemetry-names.js';
import { ENVELOPE_HEADER } from '../../bodies/envelope-choice.js';
import { OipInferOperation } from '../../operations/oip-infer-operation.js';
import { PredictionsOperation, type PredictionAnswer } from '../../operations/predictions-operation.js';
import { dropUnreadBody, readBody } from '../request-body/body-reader.js';
import { ERROR_CONTENT_TYPE, errorAnswerHeaders, errorAnswerOf, isLoggedFailure } from '../errors/error-response.filter.js';
import { unexpectedError } from '../../errors/unexpected-error.js';
import { isJsonMediaType } from '../../bodies/json-body.js';
import { mediaTypeOfHeader } from '../request-body/request-body.js';
import type { HttpBody } from '../request-body/http-body.js';
import { HttpOperationContext } from '../request-context/http-operation-context.js';
import { HttpPartialStream, STREAM_STARTED, streamFormatOf } from '../streaming/http-partial-stream.js';
import { addRefusalLogFields, refusalInFlight } from '../refusals/parser-refusal.js';
import { accessLogFields, CLIENT_CLOSED_STATUS, endHttpServerSpan, latencyMsSince, noteSpanError, requestIdFrom, startHttpServerSpan } from '../observation/request-observer.js';
import { traceLogFields } from '../../../telemetry/logging/trace-log-fields.js';
import type { Telemetry } from '../../../telemetry/tracing/telemetry.js';
import { authenticate } from '../auth/auth-guard.hook.js';
import type { LaneContext, RequestLane } from '../request-lane.js';
import { HEADER_LENGTH } from './oip/oip-body.js';
import { OIP_HTTP_CODEC } from './oip/oip-http-codec.js';
import { PREDICTIONS_HTTP_CODEC } from './predictions-http-codec.js';

/** A route the lane answers, with the model it names. */
export interface LaneRoute {
  readonly kind: 'oip' | 'predictions';
  /** The route pattern, as the access log names it. */
  readonly pattern: string;
  readonly model: string;
  /** `POST`, or `PUT` for `/predictions`. */
  readonly method: 'POST' | 'PUT';
}

const OIP_INFER = /^\/v2\/models\/([\w.~-]+)\/infer$/;
const PREDICTIONS = /^\/predictions\/([\w.~-]+)$/;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const PLAIN_CONTENT_TYPE = 'text/plain; charset=utf-8';
const OCTET_CONTENT_TYPE = 'application/octet-stream';

/** One request as the lane's route handlers see it, its body read (what the REST codecs decode). */
interface LaneExchange extends HttpBody {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly requestId: string;
  /** The request's server span context, when the port traces. */
  readonly traceContext: Context | undefined;
}

/** The answer to write: status, media type (none for an empty body) and bytes. */
interface LaneAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly payload: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** The connection cannot carry another request (the body could not be read; more of it may follow). */
  readonly closeConnection?: boolean;
  /** A streamed answer's body, in place of `payload`: the handler sent intermediate answers. */
  readonly stream?: Readable;
  /** What `stream` is read from: it tells whether the answer failed once streaming. */
  readonly partials?: HttpPartialStream;
}

/**
 * A handler's result as the inference routes answer it: text as plain text, bytes as bytes, nothing as
 * an empty body, anything else as JSON (what the web framework does with a returned value).
 */
function handlerResultAnswer(result: unknown): LaneAnswer {
  if (result === undefined) return { status: 200, contentType: undefined, payload: '' };
  if (typeof result === 'string') return { status: 200, contentType: PLAIN_CONTENT_TYPE, payload: result };
  if (ArrayBuffer.isView(result)) return { status: 200, contentType: OCTET_CONTENT_TYPE, payload: Buffer.from(result.buffer, result.byteOffset, result.byteLength) };
  return { status: 200, contentType: JSON_CONTENT_TYPE, payload: JSON.stringify(result) };
}

/** The operation context of a lane request, as a controller makes it for a routed one. */
function contextOf({ request, response, requestId, traceContext }: LaneExchange, api: string, partials?: HttpPartialStream): HttpOperationContext {
  return new HttpOperationContext(request.headers, request, response, api, requestId, traceContext, partials);
}

/** The value a handler answered (the lane takes no request with an envelope: see {@link laneRouteOf}). */
function answerValue(answer: PredictionAnswer): unknown {
  if (answer.kind === 'enveloped') throw new Error('the inference lane was given a request with an envelope');
  return answer.value;
}

/**
 * Whether a route of `method` and `path` (a plugin endpoint's, with `:param` segments) could take requests
 * the lane would answer: a POST with the shape of one of its two routes, or a PUT to `/predictions/{model}`. Fastify would route such a
 * request to the endpoint (a fixed segment beats a parameter), so a port with one keeps the lane off.
 */
export function shadowsLaneRoute(method: string, path: string): boolean {
  return (method === 'POST' && (/^\/predictions\/[^/]+$/.test(path) || /^\/v2\/models\/[^/]+\/infer$/.test(path))) || (method === 'PUT' && /^\/predictions\/[^/]+$/.test(path));
}

/** What the lane asks of the model registry. */
export type LaneRegistry = Pick<ModelRegistry, 'has' | 'resolve'>;

/**
 * The lane's route for `request`, or undefined when the request is for the framework: anything but a
 * `POST` to one of the two routes (or a `PUT` to `/predictions`, as `curl -T` sends) with a plain model name (no version, no query, no escapes), a model
 * that is registered (workflows and unknown names are not), a declared `Content-Length` within `limit`,
 * and a JSON body (or, for OIP, the binary tensor extension); for `/predictions`, no envelope, asked or
 * declared by the model.
 */
export function laneRouteOf(request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, registry: LaneRegistry, limit: number): LaneRoute | undefined {
  const { method, url = '', headers } = request;
  if (method !== 'POST' && method !== 'PUT') return undefined;
  const declared = headers['content-length'];
  if (declared === undefined || headers['transfer-encoding'] !== undefined || !(Number(declared) <= limit)) return undefined;
  const mediaType = mediaTypeOfHeader(headers['content-type']);
  const oip = OIP_INFER.exec(url);
  if (oip?.[1] !== undefined) {
    if (method !== 'POST') return undefined;
    if (headers[HEADER_LENGTH] === undefined && !isJsonMediaType(mediaType)) return undefined;
    return registry.has(oip[1]) ? { kind: 'oip', pattern: '/v2/models/:model/infer', model: oip[1], method } : undefined;
  }
  const predictions = PREDICTIONS.exec(url);
  if (predictions?.[1] === undefined || !isJsonMediaType(mediaType) || headers[ENVELOPE_HEADER] !== undefined) return undefined;
  const model = predictions[1];
  if (!registry.has(model) || registry.resolve(model).manifest.envelope !== undefined) return undefined;
  return { kind: 'predictions', pattern: '/predictions/:model', model, method };
}

/**
 * The inference port's lane for its two busiest routes, `POST /v2/models/{model}/infer` and
 * `POST /predictions/{model}`, when they name a registered model and carry a plain JSON (or OIP binary)
 * body of a declared length within the limit. A routing shortcut: the work is the same transport-neutral
 * operations the controllers call ({@link OipInferOperation}, {@link PredictionsOperation}), with the
 * same codecs and operation context, and what surrounds it (request id, server span, auth check,
 * access-log line, error answer and count, connection bookkeeping) is what the request hooks do; what it
 * skips is the web framework's routing and hook chain, which cost a lone request tens of microseconds.
 * Everything else (versions, workflows, envelopes, other media types, unknown models, a port shutting
 * down) goes on to the framework.
 */
export class InferenceLane implements RequestLane {
  /** The port's telemetry when it traces requests. */
  private readonly tracing: Telemetry | undefined;
  private readonly oip: OipInferOperation;
  private readonly predictions: PredictionsOperation;

  constructor(
    private readonly core: InferenceCore,
    private readonly context: LaneContext,
  ) {
    this.tracing = context.observe.telemetry?.tracing === true ? context.observe.telemetry : undefined;
    this.oip = new OipInferOperation(core);
    this.predictions = new PredictionsOperation(core);
  }

  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.context.closing()) return false;
    const route = laneRouteOf(request, this.core.registry, this.context.maxRequestSizeBytes);
    if (route === undefined) return false;
    this.answer(request, response, route).catch((error: unknown) => {
      // Every failure of a request is answered inside `answer`; this is the net for a fault of the lane
      // itself, which must cost this request only, never the process.
      this.context.logger.error('request failed', { method: route.method, url: request.url, code: 'SLUICE_INTERNAL', error });
      response.destroy();
    });
    return true;
  }

  private async answer(request: IncomingMessage, response: ServerResponse, route: LaneRoute): Promise<void> {
    const { connections, observe, logger } = this.context;
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    const socket = request.socket;
    connections.requestStarted(request, response);
    const url = request.url ?? '';
    const server = this.tracing
      ? startHttpServerSpan(
          this.tracing,
          { method: route.method, url, route: route.pattern, scheme: (socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http', clientAddress: socket.remoteAddress, headers: request.headers },
          requestId,
        )
      : undefined;
    let body: Buffer | undefined;
    let errorCode: string | undefined;
    let streamed: HttpPartialStream | undefined = undefined;
    let finished = false;
    const onFinished = (): void => {
      if (finished) return;
      finished = true;
      connections.requestFinished(request);
      // Closed before the answer was sent: the client left, or the parser refused the rest of the
      // request (a body too slow) and answered it itself; the line and the span say which.
      // A streamed answer that failed after its status went out is recorded as the failure it was.
      const failure = streamed?.failure;
      const refusal = response.writableFinished || failure !== undefined ? undefined : refusalInFlight(request);
      if (refusal !== undefined) errorCode = refusal.error.code;
      if (failure !== undefined) {
        errorCode = failure.error.code;
        observe.metrics?.errorAnswered(failure.error.code, 'http');
        if (server !== undefined) noteSpanError(server.span, failure.error, failure.status);
      }
      const status = failure?.status ?? (response.writableFinished ? response.statusCode : (refusal?.status ?? CLIENT_CLOSED_STATUS));
      if (status !== CLIENT_CLOSED_STATUS) observe.metrics?.httpAnswered(status);
      if (observe.accessLog) {
        const fields = accessLogFields({
          method: route.method,
          url,
          route: route.pattern,
          status,
          latencyMs: latencyMsSince(started),
          requestId,
          model: route.model,
          errorCode,
          body: observe.logRequestBodies ? body : undefined,
          traceContext: server?.context,
        });
        if (refusal !== undefined) addRefusalLogFields(fields, refusal);
        logger.info('request', fields);
      }
      if (server !== undefined) endHttpServerSpan(server, status);
    };
    response.once('finish', onFinished);
    response.once('error', onFinished);
    response.once('close', onFinished);
    const failed = (thrown: unknown, closeConnection = false): LaneAnswer => {
      const error = unexpectedError(thrown);
      const failure = errorAnswerOf(error, url);
      errorCode = error.code;
      // A request the parser refused mid-body was counted with its refusal; its body then never ends.
      if (refusalInFlight(request) === undefined) observe.metrics?.errorAnswered(error.code, 'http');
      if (server !== undefined) noteSpanError(server.span, error, failure.status);
      if (isLoggedFailure(error, failure.status)) logger.error('request failed', { ...traceLogFields(server?.context), method: route.method, url, code: error.code, error: thrown });
      const headers = errorAnswerHeaders(failure);
      return { status: failure.status, contentType: ERROR_CONTENT_TYPE, payload: JSON.stringify(failure.body), ...(headers !== undefined ? { headers } : {}), closeConnection };
    };
    const respond = async (): Promise<LaneAnswer> => {
      // As the guard hook does: before the body is read, so a refused request costs no parsing.
      const { auth } = this.context;
      if (auth !== undefined) {
        try {
          await authenticate(auth, request, server?.context);
        } catch (thrown) {
          return failed(thrown, !(await dropUnreadBody(request)));
        }
      }
      let read: Buffer;
      try {
        const headerLength = Number(request.headers[HEADER_LENGTH]);
        read = await readBody(request, this.context.maxRequestSizeBytes, Number.isSafeInteger(headerLength) ? headerLength : undefined);
      } catch (thrown) {
        return failed(thrown, true);
      }
      body = read;
      try {
        const exchange: LaneExchange = { request, response, body: read, headers: request.headers, requestId, traceContext: server?.context };
        return route.kind === 'oip' ? await this.infer(route.model, exchange) : await this.predict(route.model, exchange);
      } catch (thrown) {
        return failed(thrown);
      }
    };
    const answered = await respond();
    streamed = answered.partials;
    this.write(request, response, answered, requestId);
  }

  private async infer(model: string, exchange: LaneExchange): Promise<LaneAnswer> {
    const encoded = await this.oip.infer(model, undefined, exchange, OIP_HTTP_CODEC, contextOf(exchange, 'v2'));
    if (encoded.kind === 'json') return { status: 200, contentType: JSON_CONTENT_TYPE, payload: JSON.stringify(encoded.body) };
    return { status: 200, contentType: OCTET_CONTENT_TYPE, payload: encoded.body, headers: { [HEADER_LENGTH]: String(encoded.headerLength) } };
  }

  /** As the controller answers: the handler's answer, streamed after its intermediate answers when it sends some. */
  private async predict(model: string, exchange: LaneExchange): Promise<LaneAnswer> {
    const partials = new HttpPartialStream(streamFormatOf(exchange.request.headers));
    const work = this.predictions.predict(model, undefined, undefined, exchange, PREDICTIONS_HTTP_CODEC, contextOf(exchange, 'predictions', partials));
    const done = await partials.answerOrStart(work);
    if (done !== STREAM_STARTED && partials.format === 'chunked') return handlerResultAnswer(answerValue(done));
    const url = exchange.request.url ?? '';
    work.then(
      (answer) => {
        partials.finish(answerValue(answer));
      },
      (error: unknown) => {
        partials.fail(error, url);
      },
    );
    return { status: 200, contentType: partials.contentType, payload: '', stream: partials.stream, partials, ...(partials.format === 'sse' ? { headers: { 'cache-control': 'no-cache' } } : {}) };
  }

  /** Writes the answer's head in one call (raw name-value pairs: Node then keeps no header map) and its body. */
  private write(request: IncomingMessage, response: ServerResponse, answer: LaneAnswer, requestId: string): void {
    if (response.headersSent || response.destroyed) {
      if (!response.writableEnded) response.end();
      return;
    }
    const head: string[] = [REQUEST_ID_HEADER, requestId];
    if (answer.contentType !== undefined) head.push('content-type', answer.contentType);
    if (answer.headers !== undefined) for (const [name, value] of Object.entries(answer.headers)) head.push(name, value);
    if (answer.closeConnection === true || this.context.connections.answerClosesConnection(request)) head.push('connection', 'close');
    const stream = answer.stream;
    if (stream !== undefined) {
      // Chunked: the length is not known. A client that leaves destroys the stream, which tells the handler.
      response.writeHead(answer.status, head);
      pipeline(stream, response, () => undefined);
      return;
    }
    head.push('content-length', String(typeof answer.payload === 'string' ? Buffer.byteLength(answer.payload) : answer.payload.byteLength));
    response.writeHead(answer.status, head);
    response.end(answer.payload);
  }
}
