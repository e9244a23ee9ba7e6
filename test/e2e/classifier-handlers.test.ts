import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultHandlerFixtureDir } from '../../scripts/build-handler-fixtures.js';
import { solidImage } from '../support/handlers/classifier-fixtures.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The image and text classifier handlers in a real server (loaded as the built-in plugins they are), on
 * the committed test models: the colours
 * model (a solid colour is classified as that colour) and the sentiment model (a masked bag of words).
 */
describe('classifier handlers', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      // The text classifier is CPU-heavy: its threads load the TypeScript sources, as tests run them.
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store) => {
        await cp(join(defaultHandlerFixtureDir(), 'colours'), join(store, 'colours'), { recursive: true });
        await cp(join(defaultHandlerFixtureDir(), 'sentiment'), join(store, 'sentiment'), { recursive: true });
        // The colours model again, answering its two best classes.
        await cp(join(store, 'colours'), join(store, 'colours-top2'), { recursive: true });
        const manifest = await readFile(join(store, 'colours-top2', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'colours-top2', 'model.yaml'), manifest.replace('name: colours', 'name: colours-top2').replace('handlerOptions:\n', 'handlerOptions:\n  topK: 2\n'));
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (model: string, body: RequestInit['body'], contentType: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', body, headers: { 'content-type': contentType } });

  describe('image-classifier', () => {
    it('classifies a PNG upload of solid red as red, with every class ranked', async () => {
      const answer = await post('colours', await solidImage([255, 0, 0], 'png'), 'image/png');
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body as object)).toEqual(['red', 'black', 'green', 'blue', 'white']);
    });

    it('classifies a JPEG upload of solid blue as blue', async () => {
      const answer = await post('colours', await solidImage([0, 0, 255], 'jpeg'), 'image/jpeg');
      expect([answer.status, Object.keys(answer.body as object)[0]]).toEqual([200, 'blue']);
    });

    it('classifies an upload sent as curl --data-binary sends it (form-encoded type)', async () => {
      const answer = await post('colours', await solidImage([0, 255, 0], 'png'), 'application/x-www-form-urlencoded');
      expect([answer.status, Object.keys(answer.body as object)[0]]).toEqual([200, 'green']);
    });

    it('classifies a JSON body carrying the image as base64', async () => {
      const data = Buffer.from(await solidImage([255, 255, 255], 'png')).toString('base64');
      const answer = await post('colours', JSON.stringify({ data }), 'application/json');
      expect([answer.status, Object.keys(answer.body as object)[0]]).toEqual([200, 'white']);
    });

    it('answers topK classes when the manifest sets it', async () => {
      const answer = await post('colours-top2', await solidImage([0, 0, 0], 'png'), 'image/png');
      expect([answer.status, Object.keys(answer.body as object)]).toEqual([200, ['black', 'red']]);
    });

    it('answers 400 SLUICE_REQUEST_INVALID to a body that is not an image', async () => {
      expect(await post('colours', 'hello, I am text', 'text/plain')).toMatchObject({
        status: 400,
        body: {
          code: 400,
          type: 'BadRequestException',
          errorCode: 'SLUICE_REQUEST_INVALID',
          message: 'image-classifier: the body is not an image (Input buffer contains unsupported image format); send JPEG, PNG, WebP, GIF, TIFF or AVIF bytes',
        },
      });
    });

    it('answers 400 SLUICE_REQUEST_INVALID to an empty body', async () => {
      expect(await post('colours', new Uint8Array(0), 'image/png')).toMatchObject({
        status: 400,
        body: {
          errorCode: 'SLUICE_REQUEST_INVALID',
          message: 'image-classifier: the body holds no image (it is empty); send the image bytes (curl --data-binary @image.jpg) or JSON {"data": "<base64 image>"}',
        },
      });
    });
  });

  describe('text-classifier', () => {
    it('classifies plain text "good great" as positive, with both classes', async () => {
      const answer = await post('sentiment', 'good great', 'text/plain');
      expect([answer.status, Object.keys(answer.body as object)]).toEqual([200, ['positive', 'negative']]);
    });

    it('classifies JSON {"text": "bad awful"} as negative', async () => {
      const answer = await post('sentiment', JSON.stringify({ text: 'The film was bad, awful.' }), 'application/json');
      expect([answer.status, Object.keys(answer.body as object)[0]]).toEqual([200, 'negative']);
    });

    it('classifies only the start of a text longer than the model’s 16 tokens', async () => {
      // Whole, 30 × bad outvotes 10 × good; truncated to 14 words, 10 good beat 4 bad.
      const answer = await post('sentiment', 'good '.repeat(10) + 'bad '.repeat(30), 'text/plain');
      expect([answer.status, Object.keys(answer.body as object)[0]]).toEqual([200, 'positive']);
    });

    it('batches concurrent texts and answers each its own class', async () => {
      const texts = ['good', 'bad', 'great love', 'awful hate', 'excellent', 'terrible'];
      const answers = await Promise.all(texts.map((text) => post('sentiment', text, 'text/plain')));
      expect(answers.map((a) => Object.keys(a.body as object)[0])).toEqual(['positive', 'negative', 'positive', 'negative', 'positive', 'negative']);
    });

    it('answers 400 SLUICE_REQUEST_INVALID to an empty text', async () => {
      expect(await post('sentiment', JSON.stringify({ text: '' }), 'application/json')).toMatchObject({
        status: 400,
        body: {
          code: 400,
          type: 'BadRequestException',
          errorCode: 'SLUICE_REQUEST_INVALID',
          message: 'text-classifier: the text is empty; send the text as the body (Content-Type: text/plain), a JSON string, or JSON {"text": "…"}',
        },
      });
    });

    it('answers 400 SLUICE_REQUEST_INVALID to JSON nested thousands of levels deep, which cannot reach its thread', async () => {
      const deep = `${'['.repeat(5000)}"good"${']'.repeat(5000)}`;
      expect(await post('sentiment', deep, 'application/json')).toMatchObject({
        status: 400,
        body: {
          errorCode: 'SLUICE_REQUEST_INVALID',
          message: "the request body nests more than 256 levels of JSON arrays or objects, more than the model's handler takes; send flatter JSON",
        },
      });
      expect(await post('sentiment', 'good', 'text/plain')).toMatchObject({ status: 200, body: { positive: expect.any(Number) as unknown } });
    });
  });
});
