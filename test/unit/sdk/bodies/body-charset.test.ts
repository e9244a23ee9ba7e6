import { describe, expect, it } from '@jest/globals';
import { charsetOf, refuseNonUtf8Charset } from '../../../../src/sdk/index.js';

describe('charsetOf', () => {
  it('is undefined for a Content-Type without a charset', () => {
    expect(charsetOf(undefined)).toBeUndefined();
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf('application/json; boundary=x')).toBeUndefined();
  });

  it('reads the charset lower-cased, quoted or not, among other parameters', () => {
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8');
    expect(charsetOf('application/json;Charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetOf('text/plain; format=flowed; charset = utf-16 ')).toBe('utf-16');
  });
});

describe('refuseNonUtf8Charset', () => {
  it.each([undefined, 'utf-8', 'utf8', 'us-ascii'])('lets %p pass', (charset) => {
    expect(() => {
      refuseNonUtf8Charset(charset);
    }).not.toThrow();
  });

  it.each(['latin1', 'utf-16', 'iso-8859-1'])('refuses %s with 415, naming it', (charset) => {
    expect(() => {
      refuseNonUtf8Charset(charset);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
        message: `the body is declared as charset=${charset}, but Sluice reads JSON and text bodies as UTF-8 only; send the body UTF-8 encoded, with charset=utf-8 or no charset`,
      }),
    );
  });
});
