import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough } from 'node:stream';
import type { SluiceError } from '../../../sdk/errors/index.js';
import type { PartialSink } from '../../../partials/partial-sink.js';
import { clientGone } from '../../../serving/partial-handler-context.js';
import { errorAnswerOf } from '../errors/error-response.filter.js';
import { unexpectedError } from '../../errors/unexpected-error.js';

/**
 * How an answer with intermediate parts goes over HTTP: `chunked`, one chunk per part (JSON parts as
 * newline-delimited JSON, text as text, bytes as bytes), as TorchServe streams; `sse`, Server-Sent Events
 * (`event: partial` / `progress` / `result` / `error`, each `data:` one JSON value), when the client sends
 * `Accept: text/event-stream`.
 */
export type HttpStreamFormat = 'chunked' | 'sse';

/** What kind of part an event carries. */
export type HttpStreamEvent = 'partial' | 'progress' | 'node' | 'result' | 'error';

const NDJSON = 'application/x-ndjson; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const OCTETS = 'application/octet-stream';
const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/** `sse` when the request's `Accept` asks for Server-Sent Events, else `chunked`. */
export function streamFormatOf(headers: IncomingHttpHeaders): HttpStreamFormat {
  return /\btext\/event-stream\b/i.test(headers.accept ?? '') ? 'sse' : 'chunked';
}

/** Whether the request's `Accept` asks for a streamed answer: Server-Sent Events or newline-delimited JSON. */
export function asksForStream(headers: IncomingHttpHeaders): boolean {
  return /\b(text\/event-stream|application\/x-ndjson)\b/i.test(headers.accept ?? '');
}

/** What {@link HttpPartialStream.answerOrStart} settles with when the first part comes before the work's answer. */
export const STREAM_STARTED: unique symbol = Symbol('stream started');

/** How a streamed answer failed once its status had gone out: what its access-log line and metrics record. */
export interface StreamFailure {
  readonly error: SluiceError;
  /** The status the failure would have been answered with, had it come before the stream started. */
  readonly status: number;
}

function bytesOf(value: Uint8Array): Buffer {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * One request's streamed answer over HTTP: a {@link PartialSink} writing each part to a stream the
 * framework (or the inference lane) pipes to the response. Nothing is written to the client until the
 * first part: a request that fails before it is answered with its ordinary error, and one that sends no
 * part (over `chunked`) with its ordinary answer. `send` waits while the stream is full (the client reads
 * slower than the work produces), and rejects once the client has gone (the response closed before the
 * answer ended), when {@link signal} aborts.
 */
export class HttpPartialStream implements PartialSink {
  // Made on first use: most requests never stream, and the inference lane's requests must stay cheap.
  private body: PassThrough | undefined;
  private gone: AbortController | undefined;
  /** True from the first part on: the answer is streamed. */
  private begun = false;
  /** Told of the first part, by {@link answerOrStart}. */
  private onBegin: (() => void) | undefined;
  private media: string | undefined;
  private ended = false;
  private failedWith: StreamFailure | undefined;

  constructor(readonly format: HttpStreamFormat) {}

  /**
   * What comes first of `work`'s end and this stream's first part: the work's answer, or
   * {@link STREAM_STARTED}. A failure of the work before the first part rejects it. One promise where a
   * race of the two would make six: every prediction waits on it, and few stream.
   */
  answerOrStart<T>(work: Promise<T>): Promise<T | typeof STREAM_STARTED> {
    return new Promise<T | typeof STREAM_STARTED>((resolve, reject) => {
      if (this.begun) {
        resolve(STREAM_STARTED);
        return;
      }
      this.onBegin = () => {
        resolve(STREAM_STARTED);
      };
      work.then(resolve, reject);
    });
  }

  private begin(): void {
    if (this.begun) return;
    this.begun = true;
    this.onBegin?.();
  }

  /** What the response's body is read from. */
  get stream(): PassThrough {
    if (this.body === undefined) {
      const body = new PassThrough();
      body.once('close', () => {
        if (!this.ended) this.controller.abort(clientGone());
      });
      this.body = body;
    }
    return this.body;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private get controller(): AbortController {
    return (this.gone ??= new AbortController());
  }

  /** The response's media type, set by the first part. */
  get contentType(): string {
    return this.media ?? (this.format === 'sse' ? EVENT_STREAM : NDJSON);
  }

  send(answer: unknown): Promise<void> {
    return this.sendEvent(answer, 'partial');
  }

  /** Sends one part of kind `event` (Server-Sent Events name it; chunks do not). */
  sendEvent(answer: unknown, event: HttpStreamEvent): Promise<void> {
    if (this.signal.aborted || this.stream.destroyed) return Promise.reject(clientGone());
    const chunk = this.encode(answer, event);
    this.begin();
    if (chunk === undefined || this.stream.write(chunk)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const drained = (): void => {
        this.stream.off('close', closed);
        resolve();
      };
      const closed = (): void => {
        this.stream.off('drain', drained);
        reject(clientGone());
      };
      this.stream.once('drain', drained);
      this.stream.once('close', closed);
    });
  }

  /** Ends the answer with its final part (nothing more for an answer of nothing). */
  finish(answer: unknown): void {
    if (this.stream.destroyed) return;
    const chunk = this.encode(answer, 'result');
    this.ended = true;
    this.begin();
    this.stream.end(chunk);
  }

  /** How the answer failed after it started, once {@link fail} has been called. */
  get failure(): StreamFailure | undefined {
    return this.failedWith;
  }

  /**
   * Ends the answer with `error` (its status has gone out): Server-Sent Events with an `error` event whose
   * data is the route's error body; newline-delimited JSON with a last line that is that error body
   * (`{code, type, message, errorCode}`); text or bytes, which have no room for it, by cutting the
   * response short, which clients see as a failed transfer. The failure is kept ({@link failure}) for the
   * request's access-log line and metrics, which read it when the response ends.
   */
  fail(error: unknown, url: string): StreamFailure {
    const sluiceError = unexpectedError(error);
    const answer = errorAnswerOf(sluiceError, url);
    this.failedWith = { error: sluiceError, status: answer.status };
    if (this.stream.destroyed) return this.failedWith;
    if (this.format === 'sse' || this.media === NDJSON) {
      this.ended = true;
      this.stream.end(this.encode(answer.body, 'error'));
      return this.failedWith;
    }
    this.stream.destroy(error instanceof Error ? error : new Error(String(error)));
    return this.failedWith;
  }

  private encode(answer: unknown, event: HttpStreamEvent): string | Buffer | undefined {
    if (this.format === 'sse') {
      this.media ??= EVENT_STREAM;
      const data = answer instanceof Uint8Array ? bytesOf(answer).toString('base64') : answer;
      return `event: ${event}\ndata: ${JSON.stringify(data ?? null)}\n\n`;
    }
    if (answer === undefined) return undefined;
    if (typeof answer === 'string') {
      this.media ??= TEXT;
      return answer;
    }
    if (answer instanceof Uint8Array) {
      this.media ??= OCTETS;
      return bytesOf(answer);
    }
    this.media ??= NDJSON;
    return `${JSON.stringify(answer)}\n`;
  }
}
