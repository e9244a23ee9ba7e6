import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { imageClassifierHandler } from '../../../../plugins/image-classifier/index.js';
import { type HandlerRequest, type Tensor } from '../../../../src/sdk/index.js';
import { rejection } from '../../../support/rejection.js';
import {
  bytesRequest,
  classify,
  handlerContext,
  loadFixtureModel,
  solidImage,
  stripedImage,
  type FixtureModel,
} from '../../../support/handlers/classifier-fixtures.js';

const RED = [255, 0, 0] as const;
const GREEN = [0, 255, 0] as const;
const BLUE = [0, 0, 255] as const;
/** The colours model's settings as its model.yaml has them: pixels normalised to [-1, 1]. */
const UNIT_RANGE = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

let colours: FixtureModel;

beforeAll(async () => {
  colours = await loadFixtureModel('colours');
});
afterAll(async () => {
  await colours.model.release();
});

async function preprocessed(request: HandlerRequest, config: Record<string, unknown> = UNIT_RANGE): Promise<Tensor> {
  const [prepared] = await imageClassifierHandler.preprocess([request], handlerContext(colours.description, config));
  const [input] = prepared?.inputs ?? [];
  if (input === undefined) throw new Error('no input prepared');
  return input;
}

/** Per-channel means of an NCHW FP32 tensor of one image. */
function channelMeans(tensor: Tensor): number[] {
  const [, channels = 0, height = 0, width = 0] = tensor.shape;
  const data = tensor.data as Float32Array;
  const area = height * width;
  return Array.from({ length: channels }, (_, c) => data.slice(c * area, (c + 1) * area).reduce((s, v) => s + v, 0) / area);
}


describe('image-classifier preprocess', () => {
  it('turns a solid red PNG into a [1, 3, 16, 16] FP32 tensor of (1, -1, -1)', async () => {
    const tensor = await preprocessed(bytesRequest(await solidImage(RED, 'png')));
    expect([tensor.name, tensor.datatype, tensor.shape]).toEqual(['image', 'FP32', [1, 3, 16, 16]]);
    expect(new Set(tensor.data as Float32Array)).toEqual(new Set([1, -1]));
    expect(channelMeans(tensor)).toEqual([1, -1, -1]);
  });

  it('keeps the centre of a wide image when centre-cropping', async () => {
    const tensor = await preprocessed(bytesRequest(await stripedImage([RED, GREEN, BLUE], 32, 32)), { ...UNIT_RANGE, cropFraction: 1 });
    // Only the resampling kernel's reach into the neighbouring stripes keeps the means off ±1.
    const [red = 0, green = 0, blue = 0] = channelMeans(tensor);
    expect([red, green, blue].map((v) => Math.round(v * 10) / 10)).toEqual([-1, 1, -1]);
  });

  it('keeps the centre of a sliver (2 100 000 × 1) when centre-cropping, rather than refusing it', async () => {
    const tensor = await preprocessed(bytesRequest(await stripedImage([RED, GREEN, BLUE], 700_000, 1)));
    expect(tensor.shape).toEqual([1, 3, 16, 16]);
    expect(channelMeans(tensor)).toEqual([-1, 1, -1]);
  });

  it('keeps every stripe when told to fill', async () => {
    const tensor = await preprocessed(bytesRequest(await stripedImage([RED, GREEN, BLUE], 32, 32)), { ...UNIT_RANGE, resize: 'fill' });
    const means = channelMeans(tensor);
    for (const mean of means) expect(mean).toBeCloseTo(-1 / 3, 1);
  });

  it('reads a JSON body with the image as base64 in "data"', async () => {
    const png = Buffer.from(await solidImage(BLUE, 'png')).toString('base64');
    const tensor = await preprocessed({ body: { data: png }, contentType: 'application/json' });
    expect(channelMeans(tensor)).toEqual([-1, -1, 1]);
  });

  it('refuses an empty body', async () => {
    const error = await rejection(preprocessed(bytesRequest(new Uint8Array(0), 'application/octet-stream')));
    expect([error.code, error.message]).toEqual([
      'SLUICE_REQUEST_INVALID',
      'image-classifier: the body holds no image (it is empty); send the image bytes (curl --data-binary @image.jpg) or JSON {"data": "<base64 image>"}',
    ]);
  });

  it('refuses bytes that are not an image', async () => {
    const error = await rejection(preprocessed(bytesRequest(new TextEncoder().encode('definitely not a picture'), 'text/plain')));
    expect([error.code, error.message]).toEqual([
      'SLUICE_REQUEST_INVALID',
      'image-classifier: the body is not an image (Input buffer contains unsupported image format); send JPEG, PNG, WebP, GIF, TIFF or AVIF bytes',
    ]);
  });

  it('refuses an SVG image', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>');
    const error = await rejection(preprocessed(bytesRequest(svg, 'image/svg+xml')));
    expect(error.message).toBe('image-classifier: SVG images are not accepted; send JPEG, PNG, WebP, GIF, TIFF or AVIF bytes');
  });

  it('refuses an image with more pixels than maxPixels', async () => {
    const error = await rejection(preprocessed(bytesRequest(await solidImage(RED, 'png', 40, 30)), { ...UNIT_RANGE, maxPixels: 1000 }));
    expect([error.code, error.message]).toEqual([
      'SLUICE_REQUEST_INVALID',
      "image-classifier: the image is 40×30 = 1200 pixels, more than this model's limit of 1000 (handlerOptions.maxPixels); send a smaller image",
    ]);
  });

  it('refuses a JSON body without base64 data', async () => {
    const error = await rejection(preprocessed({ body: { instances: [] }, contentType: 'application/json' }));
    expect(error.message).toBe(
      'image-classifier: the body is a JSON object without a "data" string; send the image bytes (curl --data-binary @image.jpg) or JSON {"data": "<base64 image>"}',
    );
  });
});

describe('image-classifier preprocess into other input layouts', () => {
  const withInput = (shape: number[], datatype: 'FP32' | 'UINT8') => ({
    ...colours.description,
    inputs: [{ name: 'pixels', datatype, shape }],
  });

  it('writes NHWC when told, channel values interleaved', async () => {
    const context = handlerContext(withInput([-1, 2, 2, 3], 'FP32'), { ...UNIT_RANGE, layout: 'NHWC' });
    const [prepared] = await imageClassifierHandler.preprocess([bytesRequest(await solidImage(GREEN, 'png'))], context);
    expect(prepared?.inputs[0]).toEqual({ name: 'pixels', datatype: 'FP32', shape: [1, 2, 2, 3], data: new Float32Array([-1, 1, -1, -1, 1, -1, -1, 1, -1, -1, 1, -1]) });
  });

  it('gives a UINT8 input the pixels as they are', async () => {
    const context = handlerContext(withInput([-1, 3, 1, 2], 'UINT8'));
    const [prepared] = await imageClassifierHandler.preprocess([bytesRequest(await solidImage([10, 20, 30], 'png'))], context);
    expect(prepared?.inputs[0]).toEqual({ name: 'pixels', datatype: 'UINT8', shape: [1, 3, 1, 2], data: new Uint8Array([10, 10, 20, 20, 30, 30]) });
  });

  it('makes one grey channel for a single-channel input', async () => {
    const context = handlerContext(withInput([-1, 1, 2, 2], 'UINT8'));
    const [prepared] = await imageClassifierHandler.preprocess([bytesRequest(await solidImage([255, 255, 255], 'png'))], context);
    expect(prepared?.inputs[0]).toEqual({ name: 'pixels', datatype: 'UINT8', shape: [1, 1, 2, 2], data: new Uint8Array([255, 255, 255, 255]) });
  });
});

describe('image-classifier with the colours model', () => {
  it('classifies a solid red PNG as red, with the five classes ranked by probability', async () => {
    const answer = (await classify(imageClassifierHandler, colours, bytesRequest(await solidImage(RED, 'png')), UNIT_RANGE)) as Record<string, number>;
    expect(Object.keys(answer)).toEqual(['red', 'black', 'green', 'blue', 'white']);
    // Logits 6, 2, -2, -2, -2.
    const total = Math.exp(6) + Math.exp(2) + 3 * Math.exp(-2);
    expect(answer['red']).toBeCloseTo(Math.exp(6) / total, 6);
    expect(answer['black']).toBeCloseTo(Math.exp(2) / total, 6);
  });

  it('classifies a solid blue JPEG as blue', async () => {
    const answer = (await classify(imageClassifierHandler, colours, bytesRequest(await solidImage(BLUE, 'jpeg'), 'image/jpeg'), UNIT_RANGE)) as Record<string, number>;
    expect(Object.keys(answer)[0]).toBe('blue');
  });

  it('answers only topK classes', async () => {
    const answer = await classify(imageClassifierHandler, colours, bytesRequest(await solidImage(GREEN, 'webp'), 'image/webp'), { ...UNIT_RANGE, topK: 2 });
    expect(Object.keys(answer as object)).toEqual(['green', 'black']);
  });

  it('answers a ranked list with responseFormat: list', async () => {
    const answer = await classify(imageClassifierHandler, colours, bytesRequest(await solidImage([255, 255, 255], 'png')), { ...UNIT_RANGE, topK: 1, responseFormat: 'list' });
    expect(answer).toEqual([{ label: 'white', probability: expect.any(Number) as unknown }]);
  });

  it('answers the raw scores with softmax: false', async () => {
    const answer = await classify(imageClassifierHandler, colours, bytesRequest(await solidImage(RED, 'png')), { ...UNIT_RANGE, softmax: false, topK: 2 });
    expect(answer).toEqual({ red: 6, black: 2 });
  });

  it('refuses a labels file of another length than the output', async () => {
    const fixture = { ...colours, description: { ...colours.description, labels: ['red', 'green'] } };
    const error = await rejection(classify(imageClassifierHandler, fixture, bytesRequest(await solidImage(RED, 'png')), UNIT_RANGE));
    expect([error.code, error.message]).toEqual([
      'SLUICE_HANDLER_FAILED',
      'image-classifier: output `logits` of model `colours` has 5 classes but its labels file names 2; fix the labels file',
    ]);
  });
});
