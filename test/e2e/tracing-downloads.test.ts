import type { IncomingHttpHeaders } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Client } from '@grpc/grpc-js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { grpcClient, metadataOf, unary } from '../support/grpc-clients.js';
import { packModelArchive } from '../../src/model-store/index.js';
import { only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const CALLER_SPAN_ID = 'eee19b7ec3c1b174';
/** A workflow of the repository's examples, served by the loopback host. */
const WORKFLOW_FILE = join(process.cwd(), 'workflows', 'iris-second-opinion.yaml');

describe('trace context of model downloads', () => {
  const recorder = new SpanRecorder();
  const received: IncomingHttpHeaders[] = [];
  let t: TestServer;
  let files: LoopbackFileServer;
  let filesUrl = '';
  let management: Client;

  beforeAll(async () => {
    t = await startTestServer({
      // iris-quick: the example workflow's first model.
      demoModels: ['iris', 'iris-quick'],
      telemetry: recorder.telemetry,
      config: { allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/(models|workflows)/.*$'] },
      prepare: async (store, dir) => {
        await packModelArchive(join(store, 'iris'), join(dir, 'served-iris.sluice'));
      },
    });
    const archive = await readFile(join(t.dir, 'served-iris.sluice'));
    const workflow = await readFile(WORKFLOW_FILE);
    files = await startLoopbackFileServer((req, res) => {
      received.push(req.headers);
      res.end(req.url?.startsWith('/workflows/') === true ? workflow : archive);
    });
    filesUrl = files.url;
    management = grpcClient('torchserveManagement', t.grpcManagement);
  });
  beforeEach(() => {
    received.length = 0;
    recorder.reset();
  });
  afterAll(async () => {
    management.close();
    await t.close();
    await files.close();
    await recorder.telemetry.shutdown();
  });

  /**
   * Registers from the loopback host through `POST <route>` with the caller's traceparent; expects the
   * answer 200 and resolves with the registration's server span.
   */
  const registerTraced = async (route: '/models' | '/workflows', query: string): Promise<ReadableSpan> => {
    const answer = await requestJson(`${t.management}${route}?${query}`, {
      method: 'POST',
      headers: { traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) },
    });
    expect(answer.status).toBe(200);
    const name = `POST ${route}`;
    return only(await recorder.until((s) => s.some((span) => span.name === name)), name);
  };

  it('sends the registration’s traceparent to the model host, naming the management request’s span', async () => {
    const server = await registerTraced('/models', `url=${encodeURIComponent(`${filesUrl}/models/iris.sluice`)}&model_name=iris-remote`);
    expect(received.map((headers) => headers['traceparent'])).toEqual([traceparent(TRACE_ID, server.spanContext().spanId)]);
  });

  it('sends the traceparent of a gRPC RegisterModel call to the model host, naming the call’s span', async () => {
    const metadata = metadataOf({ traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) });
    await unary(management, 'RegisterModel', { url: `${filesUrl}/models/iris.sluice`, model_name: 'iris-grpc' }, {}, metadata);
    const name = 'org.pytorch.serve.grpc.management.ManagementAPIsService/RegisterModel';
    const server = only(await recorder.until((s) => s.some((span) => span.name === name)), name);
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(received.map((headers) => headers['traceparent'])).toEqual([traceparent(TRACE_ID, server.spanContext().spanId)]);
  });

  it('sends the registration’s traceparent with a workflow downloaded from a URL', async () => {
    const server = await registerTraced('/workflows', `url=${encodeURIComponent(`${filesUrl}/workflows/second.yaml`)}&workflow_name=second-remote`);
    expect(received.map((headers) => headers['traceparent'])).toEqual([traceparent(TRACE_ID, server.spanContext().spanId)]);
  });
});
