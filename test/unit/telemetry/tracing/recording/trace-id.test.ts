import { describe, expect, it } from '@jest/globals';
import { TraceId } from '../../../../../src/telemetry/tracing/recording/trace-id.js';

describe('TraceId', () => {
  it('spells its four words as 32 lowercase hex digits, big-endian', () => {
    expect(new TraceId(0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736).hex).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('spells small and top-bit words with their leading zeros, unsigned', () => {
    expect(new TraceId(0, 1, 0xffffffff, 0x80000000).hex).toBe('0000000000000001ffffffff80000000');
  });

  it('reads 32 hex digits into the same words', () => {
    const id = TraceId.fromHex('4bf92f3577b34da6a3ce929d0e0e4736');
    expect([id?.word0, id?.word1, id?.word2, id?.word3]).toEqual([0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736]);
  });

  it('reads uppercase digits and keeps the spelling it was read from', () => {
    const id = TraceId.fromHex('4BF92F3577B34DA6A3CE929D0E0E4736');
    expect([id?.word0, id?.hex]).toEqual([0x4bf92f35, '4BF92F3577B34DA6A3CE929D0E0E4736']);
  });

  it.each([
    ['too short', '4bf92f3577b34da6a3ce929d0e0e473'],
    ['too long', '4bf92f3577b34da6a3ce929d0e0e47360'],
    ['a character that is not a hex digit', '4bf92f3577b34da6a3ce929d0e0e473g'],
    ['a sign inside a word', '4bf92f35-7b34da6a3ce929d0e0e4736'],
  ])('reads nothing from a spelling %s', (_title, hex) => {
    expect(TraceId.fromHex(hex)).toBeUndefined();
  });
});
