import { describe, expect, it } from '@jest/globals';
import { HandlerOptions, SluiceError } from '../../../../src/sdk/index.js';

const options = (config: Record<string, unknown>): HandlerOptions => new HandlerOptions('image-classifier', 'colours', config);

describe('HandlerOptions', () => {
  it('gives the fallback for an absent setting and the value for a valid one', () => {
    const o = options({ topK: 3 });
    expect([o.number('topK', 5, { min: 1, integer: true }), o.number('maxPixels', 100)]).toEqual([3, 100]);
  });

  it('refuses a number out of bounds, naming the handler, the key and the model', () => {
    expect(() => options({ topK: 0 }).number('topK', 5, { min: 1, integer: true })).toThrow(
      new SluiceError('SLUICE_HANDLER_FAILED', "image-classifier: handlerOptions.topK of model `colours` must be an integer ≥ 1, not 0; fix the model's model.yaml"),
    );
  });

  it('refuses a list of the wrong length', () => {
    expect(() => options({ std: [0.5, 0.5] }).numbers('std', [1], { min: 0, exclusiveMin: true }, [1, 3])).toThrow(
      "image-classifier: handlerOptions.std of model `colours` must be a list of 1 or 3 numbers, each > 0, not [0.5,0.5]; fix the model's model.yaml",
    );
  });

  it('refuses a string outside the allowed ones', () => {
    expect(() => options({ resize: 'stretch' }).oneOf('resize', ['center-crop', 'fill'], 'center-crop')).toThrow(
      'handlerOptions.resize of model `colours` must be one of center-crop, fill, not "stretch"',
    );
  });

  it('refuses a setting the handler does not know', () => {
    expect(() => {
      options({ topk: 3 }).onlyKnown(['topK', 'mean']);
    }).toThrow('handlerOptions.topk of model `colours` is not a setting of this handler (known: topK, mean)');
  });
});
