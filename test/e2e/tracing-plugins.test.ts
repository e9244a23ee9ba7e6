import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Handler } from '../../src/sdk/handler/handler.js';
import { classifierHandler } from '../../plugins/builtin-handlers/index.js';
import { childrenOf, only, SpanRecorder } from '../support/telemetry/span-recorder.js';
import { oneTokenProvider } from '../support/one-token-provider.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];


/** The classifier handler with a span of its own around preprocessing, made with the context's tracer. */
const spanMaker: Handler = {
  ...classifierHandler,
  name: 'span-maker',
  preprocess: (requests, context) =>
    context.tracer.startActiveSpan('span-maker.decode', async (span) => {
      try {
        return await classifierHandler.preprocess(requests, context);
      } finally {
        span.end();
      }
    }),
};

describe('spans of the plugin stages of a request', () => {
  const recorder = new SpanRecorder();
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      telemetry: recorder.telemetry,
      auth: { inference: 'one-token' },
      authProviders: [oneTokenProvider],
      handlers: [spanMaker],
      prepare: async (store) => {
        await cp(join(store, 'iris'), join(store, 'traced'), { recursive: true });
        const manifest = await readFile(join(store, 'traced', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'traced', 'model.yaml'), manifest.replace('name: iris', 'name: traced').replace('handler: classifier', 'handler: span-maker'));
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await recorder.telemetry.shutdown();
  });
  beforeEach(() => {
    recorder.reset();
  });

  it('an auth span under the server span names the provider', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA, headers: { authorization: 'Bearer good' } });
    expect(answer.status).toBe(200);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /predictions/:model'));
    const server = only(spans, 'POST /predictions/:model');
    const auth = only(spans, 'auth');
    expect(auth.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(auth.attributes).toMatchObject({ 'sluice.auth.provider': 'one-token' });
  });

  it('a refused request has a failed auth span and nothing after it', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA, headers: { authorization: 'Bearer bad' } });
    expect(answer.status).toBe(401);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /predictions/:model'));
    expect(only(spans, 'auth').status.code).toBe(SpanStatusCode.ERROR);
    expect(childrenOf(spans, only(spans, 'POST /predictions/:model')).map((s) => s.name)).toEqual(['auth']);
  });

  it('an envelope.decode span names the envelope, beside one preprocess per instance', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=json`, {
      method: 'POST',
      json: { instances: [SETOSA, SETOSA] },
      headers: { authorization: 'Bearer good' },
    });
    expect(answer.status).toBe(200);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /predictions/:model'));
    const children = childrenOf(spans, only(spans, 'POST /predictions/:model')).map((s) => s.name).sort();
    expect(children).toEqual(['auth', 'envelope.decode', 'postprocess', 'postprocess', 'preprocess', 'preprocess', 'queue.wait', 'queue.wait']);
    expect(only(spans, 'envelope.decode').attributes).toMatchObject({ 'sluice.envelope': 'json' });
  });

  it('a handler’s own spans, made with the tracer of its context, join the request’s trace under preprocess', async () => {
    const answer = await requestJson(`${t.inference}/predictions/traced`, { method: 'POST', json: SETOSA, headers: { authorization: 'Bearer good' } });
    expect(answer.status).toBe(200);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /predictions/:model'));
    const own = only(spans, 'span-maker.decode');
    expect(own.parentSpanContext?.spanId).toBe(only(spans, 'preprocess').spanContext().spanId);
    expect(own.spanContext().traceId).toBe(only(spans, 'POST /predictions/:model').spanContext().traceId);
  });
});
