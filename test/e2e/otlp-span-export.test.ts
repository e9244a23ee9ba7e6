import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-files/package-root.js';
import { DEFAULT_CONFIG } from '../../src/config/sluice-config.js';
import { resolveTelemetrySettings } from '../../src/telemetry/tracing/telemetry-settings.js';
import { Telemetry, type TelemetryExtras } from '../../src/telemetry/tracing/telemetry.js';
import { OtlpReceiver, type OtlpAnswer } from '../support/telemetry/otlp-receiver.js';
import { requestJson, startTestServer } from '../support/test-server.js';

/** Long enough that no batch goes out by its timer during a test. */
const NEVER = '600000';

const receivers: OtlpReceiver[] = [];
const telemetries: Telemetry[] = [];
/** Variables the exporters read from the process's environment, set by a test and restored after it. */
const savedEnv = new Map<string, string | undefined>();

/** A collector on loopback and its traces URL. */
async function collector(answer?: OtlpAnswer): Promise<{ receiver: OtlpReceiver; url: string }> {
  const receiver = new OtlpReceiver(answer);
  receivers.push(receiver);
  return { receiver, url: `${await receiver.start()}/v1/traces` };
}

/** Sets a variable of the process's environment (which the OTLP exporters read when made) for this test. */
function setProcessEnv(name: string, value: string): void {
  if (!savedEnv.has(name)) savedEnv.set(name, process.env[name]);
  process.env[name] = value;
}

/** A server's telemetry exporting every span over OTLP to `url`, with the variables in `env`. */
function telemetryTo(url: string, env: Record<string, string> = {}, extras: TelemetryExtras = {}): Telemetry {
  const settings = resolveTelemetrySettings(DEFAULT_CONFIG.telemetry, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url, OTEL_TRACES_SAMPLER: 'always_on', ...env });
  const telemetry = new Telemetry(settings, extras);
  telemetries.push(telemetry);
  return telemetry;
}

function endSpans(telemetry: Telemetry, ...names: string[]): void {
  for (const name of names) telemetry.tracer?.startSpan(name).end();
}

/** The names of the spans `receiver` received, sorted. */
function received(receiver: OtlpReceiver): string[] {
  return receiver.spans.map((s) => s.name).sort();
}

/** A loopback URL nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1/traces`;
}

/** Runs `script` in a child Node process; resolves with its exit and output. */
function runChild(script: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    // The kill timeout only keeps a failing test from hanging; a passing child exits by itself.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 20_000 });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout });
    });
  });
}

afterEach(async () => {
  // A collector still holding its answers would hold each shutdown up to the exporter's timeout.
  for (const receiver of receivers) receiver.release();
  await Promise.all(telemetries.splice(0).map((t) => t.shutdown()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  for (const [name, value] of savedEnv) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
  savedEnv.clear();
});

describe('span export to an OTLP collector', () => {
  it('posts the spans as OTLP protobuf once flushed', async () => {
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url, { OTEL_BSP_SCHEDULE_DELAY: NEVER });
    endSpans(telemetry, 'a', 'b');
    await telemetry.forceFlush();
    expect(receiver.requests.map((r) => r.contentType)).toEqual(['application/x-protobuf']);
    expect(received(receiver)).toEqual(['a', 'b']);
  });

  it('sends the headers of OTEL_EXPORTER_OTLP_TRACES_HEADERS', async () => {
    setProcessEnv('OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'authorization=Bearer%20abc,x-tenant=acme');
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url);
    endSpans(telemetry, 'with headers');
    await telemetry.forceFlush();
    expect(receiver.requests[0]?.headers).toMatchObject({ authorization: 'Bearer abc', 'x-tenant': 'acme' });
  });

  it('gzips the spans with OTEL_EXPORTER_OTLP_TRACES_COMPRESSION=gzip', async () => {
    setProcessEnv('OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'gzip');
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url);
    endSpans(telemetry, 'compressed');
    await telemetry.forceFlush();
    expect(receiver.requests[0]?.headers['content-encoding']).toBe('gzip');
    expect(received(receiver)).toEqual(['compressed']);
  });

  it('sends a batch a full OTEL_BSP_MAX_EXPORT_BATCH_SIZE at once, without waiting for the schedule', async () => {
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url, { OTEL_BSP_SCHEDULE_DELAY: NEVER, OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '3' });
    endSpans(telemetry, 'a', 'b', 'c');
    await receiver.received(1);
    expect(received(receiver)).toEqual(['a', 'b', 'c']);
  });

  it('sends a batch again when the collector asks for a retry (503 with Retry-After), and reports no failure', async () => {
    const { receiver, url } = await collector((index) => (index === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
    const failures: Error[] = [];
    const telemetry = telemetryTo(url, {}, { reportExportFailure: (error) => failures.push(error) });
    endSpans(telemetry, 'retried');
    await telemetry.forceFlush();
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]?.raw).toEqual(receiver.requests[0]?.raw);
    expect(failures).toEqual([]);
  });

  it('delivers the spans ended before its shutdown', async () => {
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url, { OTEL_BSP_SCHEDULE_DELAY: NEVER });
    endSpans(telemetry, 'a', 'b', 'c');
    await telemetry.shutdown();
    expect(received(receiver)).toEqual(['a', 'b', 'c']);
  });

  it('exports nothing of spans that end after its shutdown', async () => {
    const { receiver, url } = await collector();
    const telemetry = telemetryTo(url);
    await telemetry.shutdown();
    endSpans(telemetry, 'late');
    await telemetry.forceFlush();
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not hold its process open', async () => {
    const { url } = await collector();
    const telemetryModule = pathToFileURL(join(packageRoot(), 'dist/src/telemetry/tracing/telemetry.js')).href;
    const settingsModule = pathToFileURL(join(packageRoot(), 'dist/src/telemetry/tracing/telemetry-settings.js')).href;
    const child = await runChild(`const { Telemetry, TELEMETRY_OFF } = await import(${JSON.stringify(telemetryModule)});
const { DEFAULT_BATCH_SPANS } = await import(${JSON.stringify(settingsModule)});
const telemetry = new Telemetry({ ...TELEMETRY_OFF, tracesExporter: 'otlp', tracesEndpoint: ${JSON.stringify(url)}, sampler: 'always_on', batchSpans: { ...DEFAULT_BATCH_SPANS, scheduledDelayMillis: 60000 } });
telemetry.tracer.startSpan('waiting').end();
console.log('started');`);
    expect(child).toEqual({ code: 0, signal: null, stdout: 'started\n' });
  }, 30_000);
});

describe('span export when the collector fails', () => {
  it('reports a batch the collector refuses, with its status and explanation', async () => {
    const { receiver, url } = await collector(() => ({ status: 400, body: 'the spans are malformed' }));
    const failures: Error[] = [];
    const telemetry = telemetryTo(url, {}, { reportExportFailure: (error) => failures.push(error) });
    endSpans(telemetry, 'refused');
    await telemetry.forceFlush();
    await telemetry.shutdown();
    expect(receiver.requests).toHaveLength(1);
    expect(failures).toEqual([expect.objectContaining({ message: expect.stringContaining('Bad Request'), code: 400, data: 'the spans are malformed' })]);
  });

  it('reports spans it cannot deliver to a collector that is down, and flushes and stops all the same', async () => {
    // The exporter retries a refused connection until its own timeout; a short one keeps the test short.
    setProcessEnv('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', '300');
    const failures: Error[] = [];
    const telemetry = telemetryTo(await closedPortUrl(), {}, { reportExportFailure: (error) => failures.push(error) });
    endSpans(telemetry, 'undeliverable');
    await expect(telemetry.forceFlush()).resolves.toBeUndefined();
    await expect(telemetry.shutdown()).resolves.toBeUndefined();
    expect(failures).toEqual([expect.objectContaining({ code: 'ECONNREFUSED' })]);
  });

  it('drops spans beyond OTEL_BSP_MAX_QUEUE_SIZE while the collector does not answer, and sends later ones once it does', async () => {
    const { receiver, url } = await collector();
    receiver.hold();
    const telemetry = telemetryTo(url, { OTEL_BSP_SCHEDULE_DELAY: NEVER, OTEL_BSP_MAX_QUEUE_SIZE: '4', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2' });
    // s1 and s2 go out at once and wait for an answer; s3 to s6 fill the queue; the rest are dropped.
    endSpans(telemetry, 's1', 's2', 's3', 's4', 's5', 's6', 'dropped-1', 'dropped-2', 'dropped-3');
    await receiver.received(1);
    receiver.release();
    await receiver.received(3);
    endSpans(telemetry, 'later');
    await telemetry.forceFlush();
    expect(received(receiver)).toEqual(['later', 's1', 's2', 's3', 's4', 's5', 's6']);
  });

  it('answers requests while its collector does not answer', async () => {
    const { receiver, url } = await collector();
    receiver.hold();
    const telemetry = telemetryTo(url, { OTEL_BSP_MAX_QUEUE_SIZE: '8', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2' });
    const t = await startTestServer({ demoModels: ['iris'], telemetry });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).status);
      expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
      expect(receiver.requests.length).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
