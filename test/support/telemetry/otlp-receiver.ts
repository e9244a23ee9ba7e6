import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpTraces } from './otlp-protobuf.js';

/** A span as OTLP/HTTP JSON carries it (the fields the tests read). */
export interface OtlpJsonSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly links?: readonly { readonly traceId: string; readonly spanId: string }[];
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
 * A minimal OTLP/HTTP collector on loopback: accepts `POST /v1/traces` as protobuf or JSON and keeps
 * what arrived, the raw body and, for protobuf, that body decoded into the JSON shape. It answers every
 * request with 200 unless given an `answer` (a refusal, a retry request).
 */
export class OtlpReceiver {
  readonly requests: { readonly contentType: string; readonly raw: Buffer; readonly body: OtlpJsonTraces }[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = this.answer(this.requests.length);
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const contentType = request.headers['content-type'] ?? '';
        const raw = Buffer.concat(chunks);
        const body = (contentType.startsWith('application/x-protobuf') ? decodeOtlpTraces(raw) : JSON.parse(raw.toString('utf8'))) as OtlpJsonTraces;
        this.requests.push({ contentType, raw, body });
        for (const wake of this.waiting.splice(0)) wake();
      }
      response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });

  constructor(private readonly answer: OtlpAnswer = ACCEPT) {}

  /** Resolves once `count` requests have arrived. */
  async received(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((wake) => this.waiting.push(wake));
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

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => {
        if (error) reject(error);
        else resolve();
      });
    });
  }
}
