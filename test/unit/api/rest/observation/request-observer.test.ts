import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { observeRequests, requestTraceContext } from '../../../../../src/api/rest/observation/request-observer.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';
import { SpanRecorder } from '../../../../support/telemetry/span-recorder.js';

describe('the request observer', () => {
  let fastify: FastifyInstance;
  let recorder: SpanRecorder;
  let seen: FastifyRequest[];
  let base: string;
  beforeEach(async () => {
    seen = [];
    recorder = new SpanRecorder();
    fastify = Fastify();
    observeRequests(fastify, new RecordingLogger(), { telemetry: recorder.telemetry, accessLog: true, logRequestBodies: false });
    fastify.get('/ping', (request) => {
      seen.push(request);
      return { traced: requestTraceContext(request) !== undefined };
    });
    base = await fastify.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(() => fastify.close());

  it('gives a request’s trace context to the work it starts while it is being answered', async () => {
    const answer = await fetch(`${base}/ping`);
    expect(await answer.json()).toEqual({ traced: true });
  });

  it('forgets a request’s state once it is answered, so nothing holds its span after it ended', async () => {
    await (await fetch(`${base}/ping`)).text();
    await recorder.until((spans) => spans.length === 1);
    expect(seen).toHaveLength(1);
    expect(requestTraceContext(seen[0]!)).toBeUndefined();
  });
});
