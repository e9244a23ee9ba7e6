import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createTokenAuth, tokenAuthOptions, type TokenAuth } from '../../plugins/token-auth/index.js';
import { InferenceLane } from '../../src/api/rest/inference/inference-lane.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { abandonMidBody } from '../support/abandoned-request.js';
import { LANE_OFF_PLUGIN, writeLaneOffPlugin } from '../../bench/lane-off-plugin.js';
import { binaryRequestBody } from '../support/oip-binary.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { SpanRecorder } from '../support/telemetry/span-recorder.js';
import { memoryLogger, startTestServer, type TestServer } from '../support/test-server.js';

const ROW = Array.from({ length: 64 }, (_, i) => (i % 7) / 7);

/** What a client can tell of an answer, apart from the date and the request id. */
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly headerLength: string | null;
  readonly retryAfter: string | null;
  readonly body: string;
}

async function answerOf(url: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', ...init });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    headerLength: res.headers.get('inference-header-content-length'),
    retryAfter: res.headers.get('retry-after'),
    body: Buffer.from(await res.arrayBuffer()).toString('base64'),
  };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The error count of `code` on the HTTP transport, from the metrics page. */
async function errorCount(metricsUrl: string, code: string): Promise<number> {
  const page = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = page.split('\n').find((l) => l.startsWith('sluice_errors_total{') && l.includes(`code="${code}"`) && l.includes('transport="http"'));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the inference lane', () => {
  const raw: string[] = [];
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['mlp'], logger: memoryLogger(raw) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is in front of the inference port, and of no other port', () => {
    expect({ inference: t.server.inference.lane instanceof InferenceLane, management: t.server.management.lane, metrics: t.server.metrics.lane }).toEqual({
      inference: true,
      management: undefined,
      metrics: undefined,
    });
  });

  it('answers /predictions/{model} exactly as the framework answers the versioned route', async () => {
    const cases: Record<string, RequestInit> = {
      good: json([ROW]),
      wrongShape: json([[1, 2]]),
      malformed: json('[1, 2'),
      badPriority: json([ROW], { 'x-sluice-priority': 'high' }),
    };
    for (const [name, init] of Object.entries(cases)) {
      const [lane, framework] = [await answerOf(`${t.inference}/predictions/mlp`, init), await answerOf(`${t.inference}/predictions/mlp/1.0`, init)];
      expect({ name, ...lane }).toEqual({ name, ...framework });
    }
  });

  it('answers OIP infer requests, JSON and binary, exactly as the framework answers the versioned route', async () => {
    const input = { name: 'input', datatype: 'FP32', shape: [1, 64], data: ROW };
    const binary = binaryRequestBody(
      { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], parameters: { binary_data_size: 256 } }], parameters: { binary_data_output: true } },
      [new Uint8Array(new Float32Array(ROW).buffer)],
    );
    const cases: Record<string, RequestInit> = {
      json: json({ id: 'r1', inputs: [input] }),
      unknownOutput: json({ inputs: [input], outputs: [{ name: 'nope' }] }),
      wrongDatatype: json({ inputs: [{ ...input, datatype: 'INT32', data: ROW.map(() => 1) }] }),
      binary: {
        headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(binary.headerLength) },
        body: binary.body,
      },
      badBinaryHeader: { headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': 'many' }, body: binary.body },
    };
    for (const [name, init] of Object.entries(cases)) {
      const [lane, framework] = [await answerOf(`${t.inference}/v2/models/mlp/infer`, init), await answerOf(`${t.inference}/v2/models/mlp/versions/1.0/infer`, init)];
      expect({ name, ...lane }).toEqual({ name, ...framework });
    }
  });

  it('echoes the request id and writes the access-log line with route, status, latency, model and error code', async () => {
    const res = await fetch(`${t.inference}/predictions/mlp`, { method: 'POST', ...json([[1, 2]], { 'x-request-id': 'lane-1' }) });
    await res.arrayBuffer();
    const line = raw.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'request' && l['requestId'] === 'lane-1');
    expect({ echoed: res.headers.get('x-request-id'), line }).toEqual({
      echoed: 'lane-1',
      line: expect.objectContaining({
        level: 'info',
        port: 'inference',
        method: 'POST',
        route: '/predictions/:model',
        url: '/predictions/mlp',
        status: 400,
        latencyMs: expect.any(Number),
        model: 'mlp',
        errorCode: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      }),
    });
  });

  it('counts its error answers by code, as the framework does', async () => {
    const before = await errorCount(t.metrics, 'SLUICE_REQUEST_MALFORMED_JSON');
    await answerOf(`${t.inference}/v2/models/mlp/infer`, json('{"inputs": '));
    expect(await errorCount(t.metrics, 'SLUICE_REQUEST_MALFORMED_JSON')).toBe(before + 1);
  });

  it('logs a client that closes the connection part way through its body as the framework does: status 499, a client error, no failure', async () => {
    const before = await errorCount(t.metrics, 'SLUICE_REQUEST_INVALID');
    const paths = { lane: '/predictions/mlp', framework: '/predictions/mlp/1.0' };
    for (const [name, path] of Object.entries(paths)) {
      await abandonMidBody(t.inference, { path, headers: { 'content-type': 'application/json', 'x-request-id': `gone-${name}` }, declaredLength: 1000, partialBody: '[[0.5, 0.5' });
    }
    // The error is counted once the body read fails, after the connection closed: the last step of each.
    while ((await errorCount(t.metrics, 'SLUICE_REQUEST_INVALID')) < before + 2) await setTimeout(10);
    const lines = raw.map((l) => JSON.parse(l) as Record<string, unknown>);
    const accessLine = (name: string): unknown => {
      const line = lines.find((l) => l['msg'] === 'request' && l['requestId'] === `gone-${name}`);
      return line && { level: line['level'], url: line['url'], status: line['status'], model: line['model'] };
    };
    expect({
      lane: accessLine('lane'),
      framework: accessLine('framework'),
      failures: lines.filter((l) => l['level'] === 'error' && Object.values(paths).includes(l['url'] as string)),
    }).toEqual({
      lane: { level: 'info', url: paths.lane, status: 499, model: 'mlp' },
      framework: { level: 'info', url: paths.framework, status: 499, model: 'mlp' },
      failures: [],
    });
  });
});

describe('the inference lane on a guarded port', () => {
  let t: TestServer;
  let auth: TokenAuth;
  let keys: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    keys = await makeTempDir('sluice-lane-keys-');
    auth = await createTokenAuth(tokenAuthOptions({}, keys.dir), new RecordingLogger());
    t = await startTestServer({ demoModels: ['mlp'], auth: { inference: 'token-auth' }, authProviders: [auth.provider] });
  });
  afterAll(async () => {
    await t.close();
    await keys.cleanup();
  });

  it('asks the auth provider first, and answers as the guard and the framework do', async () => {
    expect(t.server.inference.lane instanceof InferenceLane).toBe(true);
    const cases: Record<string, Record<string, string>> = {
      noToken: {},
      wrongToken: { authorization: 'Bearer not-a-key' },
      inferenceKey: { authorization: `Bearer ${auth.keys.current('inference').key}` },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const init = json([ROW], headers);
      const [lane, framework] = [await answerOf(`${t.inference}/predictions/mlp`, init), await answerOf(`${t.inference}/predictions/mlp/1.0`, init)];
      expect({ name, ...lane }).toEqual({ name, ...framework });
    }
  });
});

describe('the inference lane on a traced port', () => {
  const recorder = new SpanRecorder();
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['mlp'], telemetry: recorder.telemetry });
  });
  afterAll(async () => {
    await t.close();
    await recorder.telemetry.shutdown();
  });

  /** The server span of the request sent with `requestId`, as far as the route does not change it. */
  async function serverSpanOf(requestId: string): Promise<unknown> {
    const spans = await recorder.until((all) => all.some((s) => s.kind === SpanKind.SERVER && s.attributes['sluice.request_id'] === requestId));
    const span = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['sluice.request_id'] === requestId);
    if (span === undefined) throw new Error(`no server span for ${requestId}`);
    const { ['http.route']: route, ['url.path']: path, ['sluice.request_id']: id, ...attributes } = span.attributes;
    return {
      route,
      path,
      id,
      parent: span.parentSpanContext?.spanId,
      trace: span.spanContext().traceId,
      status: span.status.code,
      attributes,
      events: span.events.map((event) => event.name),
      children: spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId).map((s) => s.name).sort(),
    };
  }

  it('is in front of it too, and gives each request the server span the framework gives', async () => {
    expect(t.server.inference.lane instanceof InferenceLane).toBe(true);
    for (const [name, body] of Object.entries({ good: [ROW], wrongShape: [[1, 2]] })) {
      const traceparent = (n: number): string => `00-${'ab'.repeat(15)}${String(n).padStart(2, '0')}-${'cd'.repeat(8)}-01`;
      await answerOf(`${t.inference}/predictions/mlp`, json(body, { 'x-request-id': `lane-${name}`, traceparent: traceparent(1) }));
      await answerOf(`${t.inference}/predictions/mlp/1.0`, json(body, { 'x-request-id': `framework-${name}`, traceparent: traceparent(2) }));
      const [lane, framework] = [(await serverSpanOf(`lane-${name}`)) as Record<string, unknown>, (await serverSpanOf(`framework-${name}`)) as Record<string, unknown>];
      expect({ route: lane['route'], path: lane['path'], trace: lane['trace'] }).toEqual({ route: '/predictions/:model', path: '/predictions/mlp', trace: `${'ab'.repeat(15)}01` });
      const same = (span: Record<string, unknown>): unknown => ({ ...span, route: undefined, path: undefined, id: undefined, trace: undefined });
      expect({ name, ...(same(lane) as object) }).toEqual({ name, ...(same(framework) as object) });
    }
  });

  it('ends the span of a request whose client closed the connection first without a status code, as the framework does', async () => {
    for (const [name, path] of Object.entries({ lane: '/predictions/mlp', framework: '/predictions/mlp/1.0' })) {
      await abandonMidBody(t.inference, { path, headers: { 'content-type': 'application/json', 'x-request-id': `gone-${name}` }, declaredLength: 1000, partialBody: '[[0.5' });
    }
    const [lane, framework] = [(await serverSpanOf('gone-lane')) as Record<string, unknown>, (await serverSpanOf('gone-framework')) as Record<string, unknown>];
    const essentials = (span: Record<string, unknown>): unknown => ({ status: span['status'], attributes: span['attributes'] });
    expect({ lane: essentials(lane), framework: essentials(framework) }).toEqual({
      lane: { status: SpanStatusCode.UNSET, attributes: expect.objectContaining({ 'error.type': 'client_closed' }) },
      framework: { status: SpanStatusCode.UNSET, attributes: expect.objectContaining({ 'error.type': 'client_closed' }) },
    });
    expect([lane, framework].map((span) => (span['attributes'] as Record<string, unknown>)['http.response.status_code'])).toEqual([undefined, undefined]);
  });
});

describe('an inference port whose plugin endpoint has the shape of a lane route', () => {
  let t: TestServer;

  beforeAll(async () => {
    const source =
      "export default { register(c) { c.endpoint({ name: 'special', api: 'inference', method: 'POST', path: '/predictions/mlp', handle: async () => ({ body: 'from the plugin' }) }); } };\n";
    t = await startTestServer({
      demoModels: ['mlp'],
      prepare: async (_store, dir) => {
        await writePluginFolder(join(dir, 'special'), { name: 'special', provides: [{ point: 'endpoint', name: 'special' }] }, source);
      },
      config: { plugins: [{ path: 'special' }] },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the lane off, so the endpoint gets its requests', async () => {
    const answer = await answerOf(`${t.inference}/predictions/mlp`, json([ROW]));
    expect({ lane: t.server.inference.lane, status: answer.status, body: Buffer.from(answer.body, 'base64').toString() }).toEqual({
      lane: undefined,
      status: 200,
      body: '"from the plugin"',
    });
  });
});

describe('an inference port with a plugin\'s empty Nest module (how bench:cpu --without-lane serves)', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['mlp'],
      prepare: async (_store, dir) => {
        await writeLaneOffPlugin(dir);
      },
      config: { plugins: [LANE_OFF_PLUGIN] },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the lane off, and the framework answers the lane\'s routes', async () => {
    const answer = await answerOf(`${t.inference}/predictions/mlp`, json([ROW]));
    expect({ lane: t.server.inference.lane, status: answer.status, contentType: answer.contentType }).toEqual({
      lane: undefined,
      status: 200,
      contentType: 'application/json; charset=utf-8',
    });
  });
});
