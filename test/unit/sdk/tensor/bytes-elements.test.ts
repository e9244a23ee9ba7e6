import { describe, expect, it } from '@jest/globals';
import { utf8BytesElements } from '../../../../src/sdk/tensor/bytes-elements.js';
import { tensorFromJsonValues, tensorFromRawBytes, type Tensor } from '../../../../src/sdk/tensor/index.js';

/** A BYTES body: each string prefixed by its 4-byte little-endian UTF-8 length. */
function lengthPrefixed(...strings: string[]): Uint8Array {
  const parts = strings.map((s) => Buffer.from(s, 'utf8'));
  const out = Buffer.alloc(parts.reduce((sum, p) => sum + 4 + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.writeUInt32LE(part.length, offset);
    part.copy(out, offset + 4);
    offset += 4 + part.length;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The distinct memory blocks a BYTES tensor's non-empty elements live in. */
function blocksOf(tensor: Tensor): number {
  return new Set((tensor.data as readonly Uint8Array[]).filter((e) => e.byteLength > 0).map((e) => e.buffer)).size;
}

describe('BYTES elements', () => {
  it('encodes JSON strings into one block of memory, not one per element', () => {
    const tensor = tensorFromJsonValues('x', 'BYTES', [3], ['ab', 'é', 'c']);
    expect(tensor.data).toEqual([new Uint8Array([0x61, 0x62]), new Uint8Array([0xc3, 0xa9]), new Uint8Array([0x63])]);
    expect(blocksOf(tensor)).toBe(1);
  });

  it('makes every empty JSON string the same empty element, so empty elements cost no memory', () => {
    const data = tensorFromJsonValues('x', 'BYTES', [3], ['', 'a', '']).data as readonly Uint8Array[];
    expect(data[0]?.byteLength).toBe(0);
    expect(data[2]).toBe(data[0]);
  });

  it('splits raw BYTES into views of one copy of the body, not one block per element', () => {
    const body = lengthPrefixed('ab', 'é', 'c');
    const tensor = tensorFromRawBytes('x', 'BYTES', [3], body);
    expect(tensor.data).toEqual([new Uint8Array([0x61, 0x62]), new Uint8Array([0xc3, 0xa9]), new Uint8Array([0x63])]);
    expect(blocksOf(tensor)).toBe(1);
    // A copy: a later change to the body does not reach the tensor.
    body.fill(0);
    expect((tensor.data as readonly Uint8Array[])[0]).toEqual(new Uint8Array([0x61, 0x62]));
  });

  it('makes every empty raw element the same empty element', () => {
    const data = tensorFromRawBytes('x', 'BYTES', [3], lengthPrefixed('', 'a', '')).data as readonly Uint8Array[];
    expect(data[0]?.byteLength).toBe(0);
    expect(data[2]).toBe(data[0]);
  });

  it('encodes a lone surrogate as U+FFFD, as TextEncoder does', () => {
    const encoder = new TextEncoder();
    const strings = ['\ud800', 'a\udc00b', '😀'];
    expect(utf8BytesElements(strings)).toEqual(strings.map((s) => encoder.encode(s)));
  });
});
