import { describe, expect, it } from '@jest/globals';
import { fourWordsHex, hexWord, twoWordsHex } from '../../../../src/telemetry/tracing/hex-words.js';

describe('hex words', () => {
  it('spells two words as 16 lowercase digits, big-endian, leading zeros kept', () => {
    expect(twoWordsHex(0x00f067aa, 0x0ba902b7)).toBe('00f067aa0ba902b7');
    expect(twoWordsHex(0, 1)).toBe('0000000000000001');
    expect(twoWordsHex(0xffffffff, 0xdeadbeef)).toBe('ffffffffdeadbeef');
  });

  it('spells four words as 32 lowercase digits (a trace id)', () => {
    expect(fourWordsHex(0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('reads back every word it spells', () => {
    for (const word of [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678]) {
      const hex = twoWordsHex(word, word);
      expect([hexWord(hex, 0), hexWord(hex, 8)]).toEqual([word, word]);
    }
  });
});
