import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeOtlpTraces } from './otlp-protobuf.js';

/** A span as OTLP/HTTP JSON carries it (the fields the tests read). */
export interface OtlpJsonSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes?: readonly OtlpJsonKeyValue[];
  readonly links?: readonly { readonly traceId: string; readonly spanId: string }[];
  readonly status?: { readonly code?: number };
}

/** An attribute as OTLP/HTTP JSON carries it (integers are numbers or, as int64 allows, strings). */
export interface OtlpJsonKeyValue {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly boolValue?: boolean; readonly intValue?: number | string };
}

/** The attributes of `span` as a plain object: strings, booleans and integers (as numbers). */
export function attributesOf(span: OtlpJsonSpan | undefined): Record<string, string | boolean | number | undefined> {
  return Object.fromEntries(
    (span?.attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? undefined : Number(value.intValue))]),
  );
}

interface OtlpJsonTraces {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly { readonly key: string; readonly value: { readonly stringValue?: string } }[] };
    readonly scopeSpans: readonly { readonly spans: readonly OtlpJsonSpan[] }[];
  }[];
}

/** How the receiver answers a request, given how many came before it: status, headers and body. */
export type OtlpAnswer = (index: number) => { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string };

const ACCEPT: OtlpAnswer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });

/**
 * A minimal OTLP/HTTP collector on loopback: accepts `POST /v1/traces` as protobuf or JSON, gzipped or
 * not, and keeps what arrived: the headers, the raw body (as sent) and that body decoded into the JSON
 * shape. It answers every request with 200 unless given an `answer` (a refusal, a retry request), and
 * holds its answers back while {@link hold} is in force.
 */
export class OtlpReceiver {
  readonly requests: { readonly contentType: string; readonly headers: IncomingHttpHeaders; readonly raw: Buffer; readonly body: OtlpJsonTraces }[] = [];
  private readonly waiting: (() => void)[] = [];
  private held: (() => void)[] | undefined;
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = this.answer(this.requests.length);
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const contentType = request.headers['content-type'] ?? '';
        const raw = Buffer.concat(chunks);
        const plain = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        const body = (contentType.startsWith('application/x-protobuf') ? decodeOtlpTraces(plain) : JSON.parse(plain.toString('utf8'))) as OtlpJsonTraces;
        this.requests.push({ contentType, headers: request.headers, raw, body });
        for (const wake of this.waiting.splice(0)) wake();
      }
      const reply = (): void => {
        response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      };
      if (this.held === undefined) reply();
      else this.held.push(reply);
    });
  });

  constructor(private readonly answer: OtlpAnswer = ACCEPT) {}

  /** Resolves once `count` requests have arrived. */
  async received(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((wake) => this.waiting.push(wake));
  }

  /** Answers nothing from now on, until {@link release}: a collector that has stopped answering. */
  hold(): void {
    this.held ??= [];
  }

  /** Answers what {@link hold} held back, and later requests at once again. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const reply of held) reply();
  }

  /** Starts listening on a free loopback port; resolves with the base URL (`http://127.0.0.1:<port>`). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span received, with the `service.name` of its resource. */
  get spans(): (OtlpJsonSpan & { readonly service: string | undefined })[] {
    return this.requests.flatMap(({ body }) =>
      body.resourceSpans.flatMap((rs) => {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
        return rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ ...span, service })));
      }),
    );
  }

  /** Stops listening, answering what is held back first. */
  async close(): Promise<void> {
    this.release();
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => {
        if (error) reject(error);
        else resolve();
      });
    });
  }
}
