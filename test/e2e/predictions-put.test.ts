import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** `$request.tag ──▶ echo ──▶ tag` */
const ECHO_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: echo, version: "1" }
inputs:
  tag: { type: any }
nodes:
  echo: { handler: test/echo-tag, inputs: { tag: $request.tag } }
outputs:
  tag: echo.tag
`;

const ECHO_HANDLER: NodeHandler = {
  name: 'test/echo-tag',
  inputs: ['tag'],
  outputs: { tag: {} },
  run: (inputs) => Promise.resolve({ tag: inputs['tag'] }),
};

/** A PUT as `curl -T file` sends it: the file's bytes, a declared length and no media type. */
function curlUpload(url: string, bytes: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'PUT', headers: { 'content-length': String(Buffer.byteLength(bytes)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      });
    });
    request.on('error', reject);
    request.end(bytes);
  });
}

describe('TorchServe inference by PUT', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      nodeHandlers: [ECHO_HANDLER],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'echo.yaml', ECHO_WORKFLOW);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('predicts with the default version for a PUT of a file without a media type, as curl -T sends it', async () => {
    expect(await curlUpload(`${t.inference}/predictions/iris`, JSON.stringify(SETOSA))).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it('answers a PUT of JSON to /predictions/{model} as the same POST (the inference lane takes both)', async () => {
    const put = await requestJson(`${t.inference}/predictions/iris`, { method: 'PUT', json: SETOSA });
    const post = await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(post.body);
  });

  it('predicts with a given version for a PUT to /predictions/{model}/{version}', async () => {
    expect(await curlUpload(`${t.inference}/predictions/iris/1.0`, JSON.stringify(SETOSA))).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it('runs a workflow for a PUT to /wfpredict/{workflow}', async () => {
    expect(await curlUpload(`${t.inference}/wfpredict/echo`, JSON.stringify({ tag: 'kitten' }))).toEqual({ status: 200, body: 'kitten' });
  });

  it('refuses a PUT naming an unknown model with 404 SLUICE_MODEL_NOT_FOUND, as a POST is', async () => {
    expect(await curlUpload(`${t.inference}/predictions/nobody`, JSON.stringify(SETOSA))).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('still refuses a PUT to OIP infer with 405, naming POST', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, { method: 'PUT', json: {} });
    expect(answer).toMatchObject({ status: 405, body: { errorCode: 'SLUICE_METHOD_NOT_ALLOWED' } });
    expect(answer.headers.get('allow')).toBe('POST');
  });
});
