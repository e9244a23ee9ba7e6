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

/**
 * A minimal OTLP/HTTP collector on loopback: accepts `POST /v1/traces` as protobuf or JSON and keeps
 * what arrived, protobuf decoded into the JSON shape.
 */
export class OtlpReceiver {
  readonly requests: { readonly contentType: string; readonly body: OtlpJsonTraces }[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const contentType = request.headers['content-type'] ?? '';
        const raw = Buffer.concat(chunks);
        const body = (contentType.startsWith('application/x-protobuf') ? decodeOtlpTraces(raw) : JSON.parse(raw.toString('utf8'))) as OtlpJsonTraces;
        this.requests.push({ contentType, body });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

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
