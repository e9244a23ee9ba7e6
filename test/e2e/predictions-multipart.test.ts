import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';
import { FORM_ECHO_HANDLER, type FormEcho } from '../support/handlers/form-echo-handler.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';

const BOUNDARY = 'sluice-test-boundary';

/** One part of a hand-written form: a field, or a file when `filename` is given. */
interface Part {
  readonly name: string;
  readonly value: string | Buffer;
  readonly filename?: string;
  readonly type?: string;
}

/** A multipart/form-data body as curl -F writes it. */
function formBody(parts: readonly Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type !== undefined ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** `$request.image, $request.lang ──▶ describe ──▶ text` */
const DESCRIBE_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: describe, version: "1" }
inputs:
  image: { type: bytes }
  lang: { type: string }
nodes:
  describe: { handler: test/describe-image, inputs: { image: $request.image, lang: $request.lang } }
outputs:
  text: describe.text
`;

/** `$request.image ──▶ size ──▶ bytes` */
const SIZE_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: size, version: "1" }
inputs:
  image: { type: bytes }
nodes:
  size: { handler: test/size-of-image, inputs: { image: $request.image } }
outputs:
  bytes: size.bytes
`;

const DESCRIBE_HANDLER: NodeHandler = {
  name: 'test/describe-image',
  inputs: ['image', 'lang'],
  outputs: { text: {} },
  run: (inputs) => {
    const image = inputs['image'] as Uint8Array;
    return Promise.resolve({ text: `${String(inputs['lang'])}: ${String(image.byteLength)} bytes` });
  },
};

const SIZE_HANDLER: NodeHandler = {
  name: 'test/size-of-image',
  inputs: ['image'],
  outputs: { bytes: {} },
  run: (inputs) => Promise.resolve({ bytes: (inputs['image'] as Uint8Array).byteLength }),
};

describe('TorchServe inference with multipart/form-data bodies', () => {
  let t: TestServer;
  const post = (path: string, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  beforeAll(async () => {
    t = await startTestServer({
      handlers: [FORM_ECHO_HANDLER],
      nodeHandlers: [DESCRIBE_HANDLER, SIZE_HANDLER],
      prepare: async (store, dir) => {
        await addStoreModel(store, 'form-echo', (modelDir) => writeIdentityModel(modelDir, 'FP32'), { name: 'form-echo', version: '1', handler: 'test/form-echo' });
        await writeWorkflowFile(dir, 'describe.yaml', DESCRIBE_WORKFLOW);
        await writeWorkflowFile(dir, 'size.yaml', SIZE_WORKFLOW);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('hands a lone data file to the handler as the body, with its media type and file name, as curl -F data=@kitten.jpg sends it', async () => {
    const answer = await post('/predictions/form-echo', formBody([{ name: 'data', value: 'not really a jpeg', filename: 'kitten.jpg', type: 'image/jpeg' }]));
    expect(answer).toMatchObject({ status: 200, body: { contentType: 'image/jpeg', body: 'not really a jpeg', filename: 'kitten.jpg' } });
    expect((answer.body as Record<string, unknown>)['parameters']).toBeUndefined();
  });

  it('reads a JSON part as JSON, as it reads a JSON body', async () => {
    const answer = await post('/predictions/form-echo', formBody([{ name: 'body', value: '{"x": [1, 2]}', type: 'application/json' }]));
    expect(answer).toMatchObject({ status: 200, body: { contentType: 'application/json', body: { x: [1, 2] } } });
  });

  it('answers several data parts as a list, one answer per part in order, each part a request of its own', async () => {
    const answer = await post(
      '/predictions/form-echo/1',
      formBody([
        { name: 'data', value: 'first', filename: 'a.png', type: 'image/png' },
        { name: 'data', value: 'second', filename: 'b.png', type: 'image/png' },
        { name: 'body', value: 'third' },
      ]),
    );
    expect(answer.status).toBe(200);
    expect((answer.body as { body: string }[]).map((entry) => entry.body)).toEqual(['first', 'second', 'third']);
  });

  it('hands the other fields to every request as its parameters', async () => {
    const answer = await post(
      '/predictions/form-echo',
      formBody([
        { name: 'data', value: 'one', filename: 'a.png', type: 'image/png' },
        { name: 'topk', value: '3' },
        { name: 'data', value: 'two', filename: 'b.png', type: 'image/png' },
      ]),
    );
    expect(answer).toMatchObject({
      status: 200,
      body: [
        { body: 'one', parameters: { topk: '3' } },
        { body: 'two', parameters: { topk: '3' } },
      ],
    });
  });

  it('hands a part called __proto__ to the handler as a parameter like any other', async () => {
    const answer = await post('/predictions/form-echo', formBody([{ name: 'data', value: 'one' }, { name: '__proto__', value: 'kept', filename: 'p.txt', type: 'text/plain' }]));
    const echo = answer.body as FormEcho;
    expect([answer.status, Object.entries(echo.parameters ?? {})]).toEqual([200, [['__proto__', 'kept']]]);
  });

  it('takes a form by PUT as by POST', async () => {
    const answer = await requestJson(`${t.inference}/predictions/form-echo`, {
      method: 'PUT',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: formBody([{ name: 'data', value: 'put', filename: 'p.png', type: 'image/png' }]),
    });
    expect(answer).toMatchObject({ status: 200, body: { body: 'put' } });
  });

  it('runs a workflow on a lone data part as on that part sent alone', async () => {
    expect(await post('/wfpredict/size', formBody([{ name: 'data', value: Buffer.alloc(1234), filename: 'page.png', type: 'image/png' }]))).toEqual(
      expect.objectContaining({ status: 200, body: 1234 }),
    );
  });

  it('runs a workflow on a form of its inputs by name', async () => {
    const answer = await post('/wfpredict/describe', formBody([{ name: 'image', value: Buffer.alloc(10), filename: 'page.png', type: 'image/png' }, { name: 'lang', value: 'en' }]));
    expect(answer).toMatchObject({ status: 200, body: 'en: 10 bytes' });
  });

  describe('refuses a bad form with a 4xx and its code, the handler never reached', () => {
    it('a Content-Type without a boundary: 400 SLUICE_MULTIPART_INVALID', async () => {
      expect(await post('/predictions/form-echo', formBody([{ name: 'data', value: 'x' }]), 'multipart/form-data')).toEqual(
        expect.objectContaining({
          status: 400,
          body: {
            code: 400,
            type: 'BadRequestException',
            errorCode: 'SLUICE_MULTIPART_INVALID',
            message:
              'the multipart/form-data body cannot be read: boundary not found; send it as curl -F does (Content-Type: multipart/form-data; boundary=…, each part framed by the boundary)',
          },
        }),
      );
    });

    it('a body cut short before its closing boundary: 400 SLUICE_MULTIPART_INVALID', async () => {
      const whole = formBody([{ name: 'data', value: 'x'.repeat(100), filename: 'a.png' }]);
      const answer = await post('/predictions/form-echo', whole.subarray(0, 120));
      expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MULTIPART_INVALID', message: expect.stringContaining('unexpected end of form') as unknown } });
    });

    it('a form without a data or body part: 400 SLUICE_MULTIPART_INVALID naming its parts', async () => {
      expect(await post('/predictions/form-echo', formBody([{ name: 'image', value: 'x', filename: 'a.png' }, { name: 'topk', value: '3' }]))).toMatchObject({
        status: 400,
        body: {
          errorCode: 'SLUICE_MULTIPART_INVALID',
          message: 'the multipart/form-data body has no part named data or body (its parts: image, topk); send the input as -F data=@file',
        },
      });
    });

    it('a part without a name: 400 SLUICE_MULTIPART_INVALID naming the part', async () => {
      const unnamed = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`);
      const body = Buffer.concat([formBody([{ name: 'data', value: 'x' }]).subarray(0, -`--${BOUNDARY}--\r\n`.length), unnamed]);
      expect(await post('/predictions/form-echo', body)).toMatchObject({
        status: 400,
        body: {
          errorCode: 'SLUICE_MULTIPART_INVALID',
          message:
            'the multipart/form-data body cannot be read: part 2 has no name (Content-Disposition: form-data; name="…"), as every part must; send it as curl -F does (Content-Type: multipart/form-data; boundary=…, each part framed by the boundary)',
        },
      });
    });

    it('more than 32 parts: 400 SLUICE_MULTIPART_TOO_MANY_PARTS', async () => {
      const parts = Array.from({ length: 33 }, (_, index) => ({ name: 'data', value: String(index) }));
      expect(await post('/predictions/form-echo', formBody(parts))).toMatchObject({
        status: 400,
        body: {
          errorCode: 'SLUICE_MULTIPART_TOO_MANY_PARTS',
          message: 'the multipart/form-data body has more than 32 parts; send at most 32 parts (data parts and fields together) per request',
        },
      });
    });

    it('a parameter over 64 KiB: 413 SLUICE_MULTIPART_PART_TOO_LARGE', async () => {
      expect(await post('/predictions/form-echo', formBody([{ name: 'data', value: 'x' }, { name: 'notes', value: 'n'.repeat(65 * 1024) }]))).toMatchObject({
        status: 413,
        body: {
          errorCode: 'SLUICE_MULTIPART_PART_TOO_LARGE',
          message: 'form part `notes` is 66560 bytes, over the 65536 a parameter may hold; send the input as a part named data (or body), which only the body limit bounds',
        },
      });
    });

    it('an unknown model before the form: 404 SLUICE_MODEL_NOT_FOUND', async () => {
      expect(await post('/predictions/nobody', formBody([]), 'multipart/form-data')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    });
  });
});
