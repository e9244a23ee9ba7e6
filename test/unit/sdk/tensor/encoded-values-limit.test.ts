import { describe, expect, it } from '@jest/globals';
import { MAX_SPELLED_OUT_VALUES, checkSpelledOutSize } from '../../../../src/sdk/tensor/encoded-values-limit.js';

describe('checkSpelledOutSize', () => {
  it('lets an output of as many values as the limit through', () => {
    expect(() => {
      checkSpelledOutSize({ name: 'y', data: { length: MAX_SPELLED_OUT_VALUES } }, 'ask for bytes');
    }).not.toThrow();
  });

  it('refuses an output of one value more with SLUICE_RESPONSE_TOO_LARGE, saying how to get it', () => {
    expect(() => {
      checkSpelledOutSize({ name: 'y', data: { length: MAX_SPELLED_OUT_VALUES + 1 } }, 'ask for bytes');
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_RESPONSE_TOO_LARGE',
        message: 'output `y` holds 16777217 values, more than the 16777216 an answer can spell out one by one; ask for bytes, or send fewer rows',
      }),
    );
  });
});
