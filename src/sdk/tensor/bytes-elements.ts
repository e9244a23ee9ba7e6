/*
 * A BYTES tensor holds one Uint8Array per element. An ArrayBuffer of its own per element made a request of
 * 1.6 million short elements cost seconds of garbage collection and about a gigabyte; these helpers make
 * elements views of one buffer instead, and every empty element the same empty array, which costs nothing.
 */

/** The element every empty BYTES element is: it has no bytes to change, so sharing it is safe. */
const EMPTY_ELEMENT = new Uint8Array(0);

/**
 * The `length` bytes of `bytes` from `offset` as a BYTES element: a view of the same memory (no copy), or
 * the shared empty element. The caller must not change `bytes` afterwards.
 */
export function bytesElementOf(bytes: Uint8Array, offset: number, length: number): Uint8Array {
  return length === 0 ? EMPTY_ELEMENT : new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length);
}

/**
 * Each string UTF-8 encoded (a lone surrogate as U+FFFD, as `TextEncoder` does) as a BYTES element: the
 * elements are views of one buffer holding them all, in order, and empty strings the shared empty element.
 */
export function utf8BytesElements(strings: readonly string[]): Uint8Array[] {
  const count = strings.length;
  const lengths = new Array<number>(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const text = strings[i] ?? '';
    const length = text.length === 0 ? 0 : Buffer.byteLength(text, 'utf8');
    lengths[i] = length;
    total += length;
  }
  const memory = Buffer.allocUnsafeSlow(total);
  const out = new Array<Uint8Array>(count);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const length = lengths[i] ?? 0;
    if (length > 0) memory.write(strings[i] ?? '', offset, length, 'utf8');
    out[i] = bytesElementOf(memory, offset, length);
    offset += length;
  }
  return out;
}
