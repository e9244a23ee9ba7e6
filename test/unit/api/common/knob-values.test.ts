import { describe, expect, it } from '@jest/globals';
import { oipParameterKnobs, positiveInteger } from '../../../../src/api/common/knob-values.js';

describe('positiveInteger', () => {
  it('reads a number or digits as text', () => {
    expect(positiveInteger(3, 'x', 1)).toBe(3);
    expect(positiveInteger('03', 'x', 1)).toBe(3);
  });

  it('shows an infinity (JSON 1e400) as such in its refusal, not as null', () => {
    expect(() => positiveInteger(Infinity, 'parameters.priority', 1)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'parameters.priority must be an integer of at least 1, got Infinity' }),
    );
  });

  it.each([['99999999999999999999'], [2 ** 60]])('names the upper bound when refusing a whole number too large to hold exactly (%p)', (value) => {
    expect(() => positiveInteger(value, 'the x-sluice-timeout-ms header', 1)).toThrow(
      `the x-sluice-timeout-ms header must be at most 9007199254740991, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  });

  it('quotes text it refuses', () => {
    expect(() => positiveInteger('1.5', 'the x-sluice-priority header', 1)).toThrow('the x-sluice-priority header must be an integer of at least 1, got "1.5"');
  });
});

describe('oipParameterKnobs', () => {
  it('reads the timeout in microseconds', () => {
    expect(oipParameterKnobs({ priority: 2, timeout: 1500 })).toEqual({ priority: 2, timeoutMs: 1.5 });
  });
});
