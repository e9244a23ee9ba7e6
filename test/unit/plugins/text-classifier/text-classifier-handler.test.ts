import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textClassifierHandler } from '../../../../plugins/text-classifier/index.js';
import { type HandlerRequest, type ModelDescription, type Tensor } from '../../../../src/sdk/index.js';
import { rejection } from '../../../support/rejection.js';
import { classify, handlerContext, loadFixtureModel, type FixtureModel } from '../../../support/handlers/classifier-fixtures.js';

/** The sentiment model's settings as its model.yaml has them. */
const SETTINGS = { tokenizer: 'tokenizer.json' };

let sentiment: FixtureModel;

beforeAll(async () => {
  sentiment = await loadFixtureModel('sentiment');
});
afterAll(async () => {
  await sentiment.model.release();
});

const text = (body: string): HandlerRequest => ({ body: new TextEncoder().encode(body), contentType: 'text/plain' });

async function prepared(request: HandlerRequest, model: ModelDescription = sentiment.description, config: Record<string, unknown> = SETTINGS): Promise<readonly Tensor[]> {
  const [entry] = await textClassifierHandler.preprocess([request], handlerContext(model, config));
  return entry?.inputs ?? [];
}

const values = (tensor: Tensor | undefined): number[] => Array.from(tensor?.data as BigInt64Array | Int32Array, Number);


// Ids of the committed vocabulary: [PAD] 0, [UNK] 1, [CLS] 2, [SEP] 3, good 4, great 5, bad 8, awful 9, film 15.
describe('text-classifier preprocess', () => {
  it('tokenises a plain-text body into input_ids and attention_mask padded to the model’s 16 tokens', async () => {
    const [ids, mask] = await prepared(text('Good great'));
    expect([ids?.name, ids?.datatype, ids?.shape, mask?.name, mask?.datatype, mask?.shape]).toEqual(['input_ids', 'INT64', [1, 16], 'attention_mask', 'INT64', [1, 16]]);
    expect(values(ids)).toEqual([2, 4, 5, 3, ...new Array<number>(12).fill(0)]);
    expect(values(mask)).toEqual([1, 1, 1, 1, ...new Array<number>(12).fill(0)]);
  });

  it('reads {"text": …} and a bare JSON string alike', async () => {
    const [fromObject] = await prepared({ body: { text: 'bad awful' }, contentType: 'application/json' });
    const [fromString] = await prepared({ body: 'bad awful', contentType: 'application/json' });
    expect(values(fromObject).slice(0, 4)).toEqual([2, 8, 9, 3]);
    expect(values(fromString)).toEqual(values(fromObject));
  });

  it('truncates a long text to 16 tokens, keeping [CLS] and [SEP]', async () => {
    const [ids, mask] = await prepared(text('good '.repeat(10) + 'bad '.repeat(30)));
    expect(values(ids)).toEqual([2, ...new Array<number>(10).fill(4), 8, 8, 8, 8, 3]);
    expect(values(mask)).toEqual(new Array<number>(16).fill(1));
  });

  it('pads only to the text’s own length with padding: longest on a model with an open sequence length', async () => {
    const open: ModelDescription = {
      ...sentiment.description,
      inputs: [
        { name: 'input_ids', datatype: 'INT32', shape: [-1, -1] },
        { name: 'token_type_ids', datatype: 'INT32', shape: [-1, -1] },
      ],
    };
    const [ids, types] = await prepared(text('great film'), open, { ...SETTINGS, padding: 'longest' });
    expect([ids?.datatype, ids?.shape, values(ids), types?.name, values(types)]).toEqual(['INT32', [1, 4], [2, 5, 15, 3], 'token_type_ids', [0, 0, 0, 0]]);
  });

  it('refuses an empty text', async () => {
    const error = await rejection(prepared(text('')));
    expect([error.code, error.message]).toEqual([
      'SLUICE_REQUEST_INVALID',
      'text-classifier: the text is empty; send the text as the body (Content-Type: text/plain), a JSON string, or JSON {"text": "…"}',
    ]);
  });

  it('refuses a blank text', async () => {
    expect((await rejection(prepared({ body: { text: ' \n\t' }, contentType: 'application/json' }))).message).toMatch(/^text-classifier: the text is empty;/);
  });

  it('refuses a body that is not UTF-8', async () => {
    const error = await rejection(prepared({ body: new Uint8Array([0xff, 0xfe, 0x00]), contentType: 'application/octet-stream' }));
    expect([error.code, error.message]).toEqual(['SLUICE_REQUEST_INVALID', expect.stringMatching(/^text-classifier: the body is not UTF-8 text;/) as unknown]);
  });

  it('refuses a JSON object without text', async () => {
    const error = await rejection(prepared({ body: { instances: ['good'] }, contentType: 'application/json' }));
    expect(error.message).toMatch(/^text-classifier: the body is a JSON object without a "text" string;/);
  });

  it('refuses a JSON null or number, naming what it got', async () => {
    const messages = await Promise.all([null, 42].map(async (body) => (await rejection(prepared({ body, contentType: 'application/json' }))).message));
    expect(messages.map((m) => m.split(';')[0])).toEqual(['text-classifier: the body is JSON null', 'text-classifier: the body is a JSON number']);
  });

  it('fails naming the setting when the tokenizer file is missing', async () => {
    const error = await rejection(prepared(text('good'), sentiment.description, { tokenizer: 'missing.json' }));
    expect([error.code, error.message]).toEqual([
      'SLUICE_HANDLER_FAILED',
      "text-classifier: tokenizer file `missing.json` of model `sentiment` cannot be read (ENOENT); fix handlerOptions.tokenizer or put the file in the model's directory",
    ]);
  });

  it('refuses a tokenizer path outside the model directory', async () => {
    const error = await rejection(prepared(text('good'), sentiment.description, { tokenizer: '../colours/labels.txt' }));
    expect(error.message).toBe(
      "text-classifier: tokenizer file `../colours/labels.txt` of model `sentiment` is outside the model directory; fix handlerOptions.tokenizer or put the file in the model's directory",
    );
  });

  it('fails when the model has an input the handler cannot fill', async () => {
    const odd = { ...sentiment.description, inputs: [...sentiment.description.inputs, { name: 'pixel_values', datatype: 'FP32' as const, shape: [-1, 3] }] };
    const error = await rejection(prepared(text('good'), odd));
    expect(error.message).toBe('text-classifier: model `sentiment` has input `pixel_values`; this handler fills input_ids, attention_mask, token_type_ids');
  });

  it('refuses a maxLength other than the model’s fixed sequence length', async () => {
    const error = await rejection(prepared(text('good'), sentiment.description, { ...SETTINGS, maxLength: 8 }));
    expect(error.message).toBe(
      "text-classifier: handlerOptions.maxLength of model `sentiment` must be left out or equal to the model's fixed sequence length of 16, not 8; fix the model's model.yaml",
    );
  });
});

describe('text-classifier with the sentiment model', () => {
  it('classifies "good great" as positive, answering every class', async () => {
    const answer = (await classify(textClassifierHandler, sentiment, text('good great'), SETTINGS)) as Record<string, number>;
    // Logits (0, 4).
    expect(Object.keys(answer)).toEqual(['positive', 'negative']);
    expect(answer['positive']).toBeCloseTo(1 / (1 + Math.exp(-4)), 6);
  });

  it('classifies "bad awful" as negative', async () => {
    const answer = await classify(textClassifierHandler, sentiment, text('This movie was bad, awful.'), SETTINGS);
    expect(Object.keys(answer as object)[0]).toBe('negative');
  });

  it('classifies a short positive text as positive: the attention mask hides the padding', async () => {
    // Each [PAD] weighs 4 towards negative, so unmasked padding would outvote the one word.
    const answer = await classify(textClassifierHandler, sentiment, text('good'), SETTINGS);
    expect(Object.keys(answer as object)[0]).toBe('positive');
  });

  it('classifies only what survives truncation', async () => {
    // 10 × good then 30 × bad: whole, it is negative; its first 14 words (10 good, 4 bad) are positive.
    const answer = await classify(textClassifierHandler, sentiment, text('good '.repeat(10) + 'bad '.repeat(30)), SETTINGS);
    expect(Object.keys(answer as object)[0]).toBe('positive');
  });

  it('answers the top class as a list with topK: 1 and responseFormat: list', async () => {
    const answer = await classify(textClassifierHandler, sentiment, text('great'), { ...SETTINGS, topK: 1, responseFormat: 'list' });
    expect(answer).toEqual([{ label: 'positive', probability: expect.any(Number) as unknown }]);
  });
});
