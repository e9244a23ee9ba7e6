import type { IncomingHttpHeaders } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packModelArchive } from '../../src/model-store/index.js';
import { only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const CALLER_SPAN_ID = 'eee19b7ec3c1b174';

describe('trace context of model downloads', () => {
  const recorder = new SpanRecorder();
  const received: IncomingHttpHeaders[] = [];
  let t: TestServer;
  let files: LoopbackFileServer;
  let filesUrl = '';

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      telemetry: recorder.telemetry,
      config: { allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/models/.*$'] },
      prepare: async (store, dir) => {
        await packModelArchive(join(store, 'iris'), join(dir, 'served-iris.sluice'));
      },
    });
    const archive = await readFile(join(t.dir, 'served-iris.sluice'));
    files = await startLoopbackFileServer((req, res) => {
      received.push(req.headers);
      res.end(archive);
    });
    filesUrl = files.url;
  });
  afterAll(async () => {
    await t.close();
    await files.close();
    await recorder.telemetry.shutdown();
  });

  it('sends the registration’s traceparent to the model host, naming the management request’s span', async () => {
    const url = encodeURIComponent(`${filesUrl}/models/iris.sluice`);
    const answer = await requestJson(`${t.management}/models?url=${url}&model_name=iris-remote`, {
      method: 'POST',
      headers: { traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID) },
    });
    expect(answer.status).toBe(200);
    const spans = await recorder.until((s) => s.some((span) => span.name === 'POST /models'));
    const server = only(spans, 'POST /models');
    expect(received.map((headers) => headers['traceparent'])).toEqual([traceparent(TRACE_ID, server.spanContext().spanId)]);
  });
});
