import { describe, expect, it } from '@jest/globals';
import { imageClassifierOptions } from '../../../../plugins/image-classifier/index.js';
import type { ModelDescription, TensorSpec } from '../../../../src/sdk/index.js';
import { handlerContext } from '../../../support/handlers/classifier-fixtures.js';

function model(input: TensorSpec): ModelDescription {
  return { name: 'm', version: '1', inputs: [input], outputs: [{ name: 'logits', datatype: 'FP32', shape: [-1, 10] }] };
}

const options = (input: TensorSpec, config: Record<string, unknown> = {}): ReturnType<typeof imageClassifierOptions> =>
  imageClassifierOptions(handlerContext(model(input), config));

describe('imageClassifierOptions', () => {
  it('reads channels, height and width from a fixed NCHW input and applies the defaults', () => {
    expect(options({ name: 'x', datatype: 'FP32', shape: [-1, 3, 32, 48] })).toEqual({
      input: { name: 'x', datatype: 'FP32', layout: 'NCHW', channels: 3, height: 32, width: 48 },
      resize: 'center-crop',
      cropFraction: 0.875,
      scale: 1 / 255,
      mean: [0.485, 0.456, 0.406],
      std: [0.229, 0.224, 0.225],
      maxPixels: 40_000_000,
      softmax: true,
      topK: 5,
      responseFormat: 'map',
    });
  });

  it('takes the size from the settings when the model leaves height and width open', () => {
    expect(options({ name: 'x', datatype: 'FP32', shape: [-1, 3, -1, -1] }, { size: [240, 320] }).input).toMatchObject({ height: 240, width: 320 });
  });

  it('uses 224 × 224 for an open input without a size setting', () => {
    expect(options({ name: 'x', datatype: 'FP32', shape: [-1, 3, -1, -1] }).input).toMatchObject({ height: 224, width: 224 });
  });

  it('reads an NHWC input and spreads a single mean and std over every channel', () => {
    const read = options({ name: 'x', datatype: 'FP32', shape: [1, 8, 8, 3] }, { layout: 'NHWC', mean: [0.5], std: [0.25] });
    expect([read.input, read.mean, read.std]).toEqual([{ name: 'x', datatype: 'FP32', layout: 'NHWC', channels: 3, height: 8, width: 8 }, [0.5, 0.5, 0.5], [0.25, 0.25, 0.25]]);
  });

  it('refuses a size that contradicts the fixed input', () => {
    expect(() => options({ name: 'x', datatype: 'FP32', shape: [-1, 3, 16, 16] }, { size: 224 })).toThrow(
      "image-classifier: handlerOptions.size of model `m` must be left out or equal to the model's fixed height of 16, not 224; fix the model's model.yaml",
    );
  });

  it('refuses an input that is not an image', () => {
    expect(() => options({ name: 'features', datatype: 'FP32', shape: [-1, 4] })).toThrow(
      'image-classifier: input `features` of model `m` has shape [-1, 4]; this handler fills [N, C, H, W] or, with layout NHWC, [N, H, W, C] inputs, N variable or 1',
    );
  });

  it('refuses a misspelt setting', () => {
    expect(() => options({ name: 'x', datatype: 'FP32', shape: [-1, 3, 16, 16] }, { top_k: 3 })).toThrow('handlerOptions.top_k of model `m` is not a setting of this handler');
  });
});
