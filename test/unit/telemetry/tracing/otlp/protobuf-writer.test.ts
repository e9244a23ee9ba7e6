import { describe, expect, it } from '@jest/globals';
import { ProtobufWriter, WIRE } from '../../../../../src/telemetry/tracing/otlp/protobuf-writer.js';

/** The varint of `value` as a 64-bit two's complement integer, computed with BigInt as a reference. */
function referenceVarint(value: number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  while (v > 0x7fn) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return bytes;
}

/** The bytes `write` puts into a fresh writer. */
function written(write: (w: ProtobufWriter) => void, initialSize?: number): Buffer {
  const w = new ProtobufWriter(initialSize);
  write(w);
  return Buffer.from(w.toBytes());
}

/** Bytes 0, 1, 2, … of `length`, wrapping at 251 so that a shifted copy would not line up by chance. */
function pattern(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

describe('ProtobufWriter', () => {
  it.each([
    ['zero', [0, 0]],
    ['a recent time', [1_767_225_600, 123_456_789]],
    ['the last nanosecond of a second', [1_767_225_600, 999_999_999]],
    ['the largest unsigned 32-bit second', [2 ** 32 - 1, 999_999_999]],
  ] as const)('writes %s as fixed64 nanoseconds without losing precision', (_, time) => {
    const bytes = written((w) => {
      w.hrTime(time);
    });
    expect(bytes).toHaveLength(8);
    expect(bytes.readBigUInt64LE(0)).toBe(BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]));
  });

  it.each([
    ['the epoch', 0],
    ['a recent time with a sub-millisecond part', 1_767_225_600_123 + 0.4567],
    ['a whole millisecond', 1_767_225_600_123],
    ['a fraction that rounds up to the next millisecond', 1_767_225_600_123 + 0.9999999],
    ['a time past 2100', 4_102_444_800_000.25],
  ] as const)('writes %s in epoch milliseconds as fixed64 nanoseconds, exactly', (_, millis) => {
    const bytes = written((w) => {
      w.epochMillis(millis);
    });
    const whole = Math.floor(millis);
    expect(bytes).toHaveLength(8);
    expect(bytes.readBigUInt64LE(0)).toBe(BigInt(whole) * 1_000_000n + BigInt(Math.round((millis - whole) * 1e6)));
  });

  it('writes a trace id from its four words as 16 big-endian bytes, prefixed with their length', () => {
    const bytes = written((w) => {
      w.traceIdBytes(0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736);
    });
    expect(bytes.toString('hex')).toBe('10' + '4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('writes a field key above 127 as a varint', () => {
    expect([
      ...written((w) => {
        w.tag(16, WIRE.fixed32);
      }),
    ]).toEqual(referenceVarint((16 << 3) | WIRE.fixed32));
  });

  it.each([-1, -2, -127, -128, -(2 ** 31), -(2 ** 32), -(2 ** 32) - 1, -(2 ** 53) + 1, -(2 ** 63)])('writes the negative varint %d as ten bytes of 64-bit two’s complement', (value) => {
    const bytes = written((w) => {
      w.varint(value);
    });
    expect(bytes).toHaveLength(10);
    expect([...bytes]).toEqual(referenceVarint(value));
  });

  it.each([0, 1, 127, 128, 16_383, 16_384, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 62])('writes the non-negative varint %d in as few 7-bit groups as it needs', (value) => {
    expect([
      ...written((w) => {
        w.varint(value);
      }),
    ]).toEqual(referenceVarint(value));
  });

  it('writes a non-ASCII string as its UTF-8 bytes, prefixed with their length', () => {
    const value = 'modèle – 推論 🚀';
    const utf8 = Buffer.from(value, 'utf8');
    expect(
      written((w) => {
        w.string(value);
      }),
    ).toEqual(Buffer.concat([Buffer.from(referenceVarint(utf8.length)), utf8]));
  });

  it('gives a string whose UTF-8 length needs a longer prefix than its character count the longer prefix', () => {
    const value = `${'a'.repeat(60)}${'é'.repeat(40)}`;
    const utf8 = Buffer.from(value, 'utf8');
    expect(value.length).toBeLessThan(0x80);
    expect(utf8.length).toBeGreaterThanOrEqual(0x80);
    expect(
      written((w) => {
        w.tag(1, WIRE.lengthDelimited);
        w.string(value);
        w.fixed32(0xdeadbeef);
      }),
    ).toEqual(Buffer.concat([Buffer.from([0x0a]), Buffer.from(referenceVarint(utf8.length)), utf8, Buffer.from([0xef, 0xbe, 0xad, 0xde])]));
  });

  it.each([0, 127, 128, 200, 16_383, 16_384, 20_000])('gives a nested message of %d bytes the right length prefix and keeps its content and what follows', (length) => {
    const content = pattern(length);
    const bytes = written((w) => {
      w.tag(1, WIRE.lengthDelimited);
      const at = w.start();
      w.raw(content);
      w.finish(at);
      w.tag(2, WIRE.varint);
      w.varint(7);
    });
    expect(bytes).toEqual(Buffer.concat([Buffer.from([0x0a]), Buffer.from(referenceVarint(length)), content, Buffer.from([0x10, 7])]));
  });

  it('lengths nested messages that grow past one length byte inside one another', () => {
    const inner = pattern(300);
    const bytes = written((w) => {
      w.tag(1, WIRE.lengthDelimited);
      const outer = w.start();
      w.tag(2, WIRE.lengthDelimited);
      const nested = w.start();
      w.raw(inner);
      w.finish(nested);
      w.finish(outer);
    });
    const innerMessage = Buffer.concat([Buffer.from([0x12]), Buffer.from(referenceVarint(300)), inner]);
    expect(bytes).toEqual(Buffer.concat([Buffer.from([0x0a]), Buffer.from(referenceVarint(innerMessage.length)), innerMessage]));
  });

  it('grows its buffer past the initial size without losing what was written', () => {
    const expected: number[] = [];
    const bytes = written((w) => {
      for (let i = 0; i < 1000; i++) {
        w.tag(1, WIRE.fixed32);
        w.fixed32(i);
        w.string(`span-${i}`);
        expected.push(0x0d, i & 0xff, (i >>> 8) & 0xff, 0, 0, `span-${i}`.length, ...Buffer.from(`span-${i}`));
      }
    }, 16);
    expect([...bytes]).toEqual(expected);
  });

  it('writes ids given as hex as their bytes, in either case', () => {
    expect(
      written((w) => {
        w.hexBytes('00f067AA0ba902b7');
      }),
    ).toEqual(Buffer.from([8, 0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]));
  });

  it('writes doubles as little-endian IEEE 754', () => {
    const bytes = written((w) => {
      w.double(-0.1);
    });
    expect(bytes.readDoubleLE(0)).toBe(-0.1);
  });

  it('starts over after reset while a copy taken before keeps its bytes', () => {
    const w = new ProtobufWriter();
    w.string('first');
    const copy = w.toBytes();
    w.reset();
    w.string('other');
    expect(Buffer.from(copy)).toEqual(Buffer.from([5, ...Buffer.from('first')]));
    expect(Buffer.from(w.written())).toEqual(Buffer.from([5, ...Buffer.from('other')]));
  });
});
