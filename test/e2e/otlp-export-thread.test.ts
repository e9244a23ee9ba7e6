import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { packageRoot } from '../../src/package-files/package-root.js';
import { DEFAULT_CONFIG } from '../../src/config/sluice-config.js';
import { resolveTelemetrySettings } from '../../src/telemetry/tracing/telemetry-settings.js';
import { Telemetry } from '../../src/telemetry/tracing/telemetry.js';
import { EncodingSpanProcessor, type EncodedTraceRequest, type TraceRequestSender } from '../../src/telemetry/tracing/otlp/encoding-span-processor.js';
import { otlpTraceSender } from '../../src/telemetry/tracing/otlp/otlp-thread-sender.js';
import { OtlpReceiver, type OtlpAnswer } from '../support/telemetry/otlp-receiver.js';

/** Batches are sized around the sender's smallest shared buffer (256 KiB). */
const KIB = 1024;

const receivers: OtlpReceiver[] = [];
const senders: TraceRequestSender[] = [];
const scratch: string[] = [];

/** A receiver on loopback and the traces URL of it. */
async function collector(answer?: OtlpAnswer): Promise<{ receiver: OtlpReceiver; url: string }> {
  const receiver = new OtlpReceiver(answer);
  receivers.push(receiver);
  return { receiver, url: `${await receiver.start()}/v1/traces` };
}

/** `sender`, to be shut down after the test. */
function tracked(sender: TraceRequestSender): TraceRequestSender {
  senders.push(sender);
  return sender;
}

/** An export request holding one real span named `name`, with an attribute that makes it about `size` bytes long. */
function batch(name: string, size = 0): EncodedTraceRequest {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('sluice.test');
  tracer.startSpan(name, { attributes: { padding: name.repeat(Math.ceil(size / name.length)).slice(0, size) } }).end();
  const bytes = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  if (bytes === undefined) throw new Error('the SDK encoded no request');
  return { bytes, spanCount: 1 };
}

function send(sender: TraceRequestSender, request: EncodedTraceRequest): Promise<ExportResult> {
  return new Promise((resolve) => {
    sender.send(request, resolve);
  });
}

/** A short fingerprint of a body, so that a mismatch reads as a few characters rather than a dump. */
function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** Counts the HTTP requests this thread starts while `body` runs (the channel is per thread). */
async function requestsStartedHere(body: () => Promise<void>): Promise<number> {
  let started = 0;
  const count = (): void => {
    started++;
  };
  subscribe('http.client.request.start', count);
  try {
    await body();
  } finally {
    unsubscribe('http.client.request.start', count);
  }
  return started;
}

/** A file with an export thread of the test's own, for the sender to start instead of Sluice's. */
function threadFile(source: string): () => string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-export-thread-'));
  scratch.push(dir);
  const file = join(dir, 'export-thread.mjs');
  writeFileSync(file, source);
  return () => file;
}

/** Runs `script` in a child Node process started with `flags`; resolves with its exit and output. */
function runChild(script: string, flags: readonly string[] = []): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    // The kill timeout only keeps a failing test from hanging; a passing child exits by itself.
    const child = spawn(process.execPath, [...flags, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 20_000 });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout });
    });
  });
}

const compiledSender = pathToFileURL(join(packageRoot(), 'dist/src/telemetry/tracing/otlp/otlp-thread-sender.js')).href;

afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.shutdown()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('otlpTraceSender', () => {
  it('delivers a batch with exactly the bytes given and reports success', async () => {
    const { receiver, url } = await collector();
    const request = batch('one', 2 * KIB);
    const result = await send(tracked(otlpTraceSender(url)), request);
    expect(result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.requests.map((r) => digest(r.raw))).toEqual([digest(request.bytes)]);
    expect(receiver.requests[0]?.contentType).toBe('application/x-protobuf');
  });

  it('sends from a thread of its own: this thread starts no HTTP request', async () => {
    const { receiver, url } = await collector();
    const sender = tracked(otlpTraceSender(url));
    const started = await requestsStartedHere(async () => {
      await send(sender, batch('elsewhere'));
    });
    expect(receiver.requests).toHaveLength(1);
    expect(started).toBe(0);
  });

  it('delivers batches in flight at the same time intact, each from its own buffer', async () => {
    const { receiver, url } = await collector();
    const sender = tracked(otlpTraceSender(url));
    const requests = ['a', 'b', 'c', 'd'].map((name) => batch(name, 100 * KIB));
    const results = await Promise.all(requests.map((r) => send(sender, r)));
    expect(results.map((r) => r.code)).toEqual(requests.map(() => ExportResultCode.SUCCESS));
    expect(receiver.requests.map((r) => digest(r.raw)).sort()).toEqual(requests.map((r) => digest(r.bytes)).sort());
  });

  it('delivers a batch larger than any buffer made so far intact, and smaller ones before and after it', async () => {
    const { receiver, url } = await collector();
    const sender = tracked(otlpTraceSender(url));
    const small = ['s1', 's2', 's3'].map((name) => batch(name, 100 * KIB));
    await Promise.all(small.map((r) => send(sender, r)));
    const large = batch('large', 600 * KIB);
    expect((await send(sender, large)).code).toBe(ExportResultCode.SUCCESS);
    const after = ['t1', 't2', 't3'].map((name) => batch(name, 200 * KIB));
    await Promise.all(after.map((r) => send(sender, r)));
    const arrived = receiver.requests.map((r) => digest(r.raw));
    expect(arrived.slice(0, 3).sort()).toEqual(small.map((r) => digest(r.bytes)).sort());
    expect(arrived[3]).toBe(digest(large.bytes));
    expect(arrived.slice(4).sort()).toEqual(after.map((r) => digest(r.bytes)).sort());
  });

  it('keeps a batch’s buffer for its retry while later batches are sent', async () => {
    const { receiver, url } = await collector((index) => (index === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
    const sender = tracked(otlpTraceSender(url));
    const first = batch('first', 10 * KIB);
    const retried = send(sender, first);
    await receiver.received(1);
    const second = batch('second', 10 * KIB);
    const results = await Promise.all([retried, send(sender, second)]);
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
    expect(receiver.requests.map((r) => digest(r.raw)).sort()).toEqual([digest(first.bytes), digest(first.bytes), digest(second.bytes)].sort());
  });

  it('reports a batch the collector refuses with 400 as failed, with the reason', async () => {
    const { url } = await collector(() => ({ status: 400, body: 'the spans are malformed' }));
    const result = await send(tracked(otlpTraceSender(url)), batch('refused'));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toEqual(expect.stringMatching(/\S/));
  });

  it('reports a refusal with the collector’s status and explanation, as the in-thread sender does', async () => {
    const { url } = await collector(() => ({ status: 400, body: 'the spans are malformed' }));
    const [threaded, inThread] = await Promise.all([send(tracked(otlpTraceSender(url)), batch('refused')), send(tracked(otlpTraceSender(url, () => undefined)), batch('refused'))]);
    expect(inThread.error).toEqual(expect.objectContaining({ code: 400, data: 'the spans are malformed' }));
    expect(threaded.error).toEqual(expect.objectContaining({ message: inThread.error?.message, code: 400, data: 'the spans are malformed' }));
  });

  it('resolves forceFlush once the batches sent before it are answered', async () => {
    const { receiver, url } = await collector();
    const sender = tracked(otlpTraceSender(url));
    let result: ExportResult | undefined;
    sender.send(batch('before flush'), (r) => (result = r));
    await sender.forceFlush();
    expect(result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.requests).toHaveLength(1);
  });

  it('fails a batch sent after shutdown, saying that the thread stopped', async () => {
    const { receiver, url } = await collector();
    const sender = otlpTraceSender(url);
    await sender.shutdown();
    const result = await send(sender, batch('late'));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toContain('thread stopped');
    expect(receiver.requests).toHaveLength(0);
  });

  it('shuts down a second time without error', async () => {
    const { url } = await collector();
    const sender = otlpTraceSender(url);
    await sender.shutdown();
    await expect(sender.shutdown()).resolves.toBeUndefined();
  });

  it('fails a batch under way when the thread dies, with the reason, and later batches at once', async () => {
    const { url } = await collector();
    const dying = threadFile(`import { parentPort } from 'node:worker_threads';
parentPort.on('message', (request) => { if (request.type === 'slot') process.exit(3); });`);
    const sender = tracked(otlpTraceSender(url, dying));
    const underWay = await send(sender, batch('under way'));
    const later = await send(sender, batch('later'));
    expect(underWay.code).toBe(ExportResultCode.FAILED);
    expect(underWay.error?.message).toContain('exit code 3');
    expect(later.code).toBe(ExportResultCode.FAILED);
    expect(later.error?.message).toContain('exit code 3');
  });

  it('fails batches with the error the thread died of', async () => {
    const { url } = await collector();
    const throwing = threadFile(`import { parentPort } from 'node:worker_threads';
parentPort.on('message', (request) => { if (request.type === 'slot') throw new Error('the export thread broke'); });`);
    const result = await send(tracked(otlpTraceSender(url, throwing)), batch('under way'));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toContain('the export thread broke');
  });

  it('sends from this thread when no compiled export thread is found', async () => {
    const { receiver, url } = await collector();
    const sender = tracked(otlpTraceSender(url, () => undefined));
    const request = batch('fallback');
    let result: ExportResult | undefined;
    const started = await requestsStartedHere(async () => {
      result = await send(sender, request);
    });
    expect(result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(started).toBe(1);
    expect(receiver.requests.map((r) => digest(r.raw))).toEqual([digest(request.bytes)]);
  });

  it('lets the process exit while idle', async () => {
    const child = await runChild(`import(${JSON.stringify(compiledSender)}).then(({ otlpTraceSender }) => {
  otlpTraceSender('http://127.0.0.1:9/v1/traces');
  console.log('started');
});`);
    expect(child).toEqual({ code: 0, signal: null, stdout: 'started\n' });
  }, 30_000);

  it('lets the process exit once its batches are answered', async () => {
    const { receiver, url } = await collector();
    const child = await runChild(`import(${JSON.stringify(compiledSender)}).then(({ otlpTraceSender }) => {
  otlpTraceSender(${JSON.stringify(url)}).send({ bytes: new Uint8Array(0), spanCount: 0 }, (result) => console.log('code', result.code));
});`);
    expect(child).toEqual({ code: 0, signal: null, stdout: `code ${ExportResultCode.SUCCESS}\n` });
    expect(receiver.requests).toHaveLength(1);
  }, 30_000);

  it('sends from a process started with flags for its main module only', async () => {
    const { receiver, url } = await collector();
    const child = await runChild(
      `const { otlpTraceSender } = await import(${JSON.stringify(compiledSender)});
otlpTraceSender(${JSON.stringify(url)}).send({ bytes: new Uint8Array(0), spanCount: 0 }, (result) => console.log('code', result.code, result.error?.message ?? ''));`,
      ['--input-type=module'],
    );
    expect(child.stdout).toBe(`code ${ExportResultCode.SUCCESS} \n`);
    expect(receiver.requests).toHaveLength(1);
  }, 30_000);

  it('delivers the spans an EncodingSpanProcessor ended before its shutdown', async () => {
    const { receiver, url } = await collector();
    const processor = new EncodingSpanProcessor(otlpTraceSender(url), { scheduledDelayMillis: 600_000, exportTimeoutMillis: 600_000, maxQueueSize: 100, maxExportBatchSize: 2 });
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('sluice.test');
    for (const name of ['a', 'b', 'c']) tracer.startSpan(name).end();
    await processor.shutdown();
    expect(receiver.spans.map((s) => s.name).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('failed span exports of a server', () => {
  it('reach the reporter the server gives its telemetry, with the collector’s refusal', async () => {
    const { receiver, url } = await collector(() => ({ status: 400, body: 'the spans are malformed' }));
    const failures: Error[] = [];
    const settings = resolveTelemetrySettings(DEFAULT_CONFIG.telemetry, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url, OTEL_TRACES_SAMPLER: 'always_on' });
    const telemetry = new Telemetry(settings, { reportExportFailure: (error) => failures.push(error) });
    telemetry.tracer?.startSpan('refused').end();
    await telemetry.forceFlush();
    await telemetry.shutdown();
    expect(receiver.requests).toHaveLength(1);
    expect(failures.map((e) => e.message)).toEqual([expect.stringContaining('Bad Request')]);
  });
});

