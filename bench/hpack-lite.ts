/**
 * Just enough HPACK (RFC 7541) for a lean gRPC load generator: encode a fixed request header block, and
 * find `grpc-status` in the header blocks of a peer that was told to keep no dynamic table
 * (SETTINGS_HEADER_TABLE_SIZE = 0), so that every field is static-indexed or literal.
 */

/** Static table indices used by the request block. */
const STATIC = { authority: 1, methodPost: 3, path: 4, schemeHttp: 6, schemeHttps: 7, contentType: 31 } as const;

/** An HPACK integer with an `prefixBits`-bit prefix whose high bits are `flags`. */
function encodeInteger(value: number, prefixBits: number, flags: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [flags | value];
  const bytes = [flags | max];
  let rest = value - max;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** A string literal, not Huffman-coded. */
function encodeString(text: string): number[] {
  const bytes = [...Buffer.from(text, 'latin1')];
  return [...encodeInteger(bytes.length, 7, 0), ...bytes];
}

/** A literal field without indexing, its name by static index. */
function literalIndexedName(index: number, value: string): number[] {
  return [...encodeInteger(index, 4, 0), ...encodeString(value)];
}

/** The header block of a gRPC request: POST to `path` at `authority`, `content-type: application/grpc`, `te: trailers`. */
export function grpcRequestHeaderBlock(path: string, authority: string, secure = false): Buffer {
  return Buffer.from([
    0x80 | STATIC.methodPost,
    0x80 | (secure ? STATIC.schemeHttps : STATIC.schemeHttp),
    ...literalIndexedName(STATIC.path, path),
    ...literalIndexedName(STATIC.authority, authority),
    ...literalIndexedName(STATIC.contentType, 'application/grpc'),
    0x00,
    ...encodeString('te'),
    ...encodeString('trailers'),
  ]);
}

/** The Huffman codes (RFC 7541, Appendix B) of the characters of `grpc-status`: code and bit length. */
const HUFFMAN: Readonly<Record<string, readonly [number, number]>> = {
  a: [0x3, 5],
  c: [0x4, 5],
  g: [0x26, 6],
  p: [0x2b, 6],
  r: [0x2c, 6],
  s: [0x8, 5],
  t: [0x9, 5],
  u: [0x2d, 6],
  '-': [0x16, 6],
};

function huffmanEncode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let count = 0;
  for (const char of text) {
    const [code, length] = HUFFMAN[char] ?? [0, 0];
    bits = (bits << length) | code;
    count += length;
    while (count >= 8) {
      count -= 8;
      bytes.push((bits >> count) & 0xff);
    }
    bits &= (1 << count) - 1;
  }
  // Padding: the most significant bits of the end-of-string code, all ones.
  if (count > 0) bytes.push(((bits << (8 - count)) | ((1 << (8 - count)) - 1)) & 0xff);
  return Buffer.from(bytes);
}

const STATUS_NAME = Buffer.from('grpc-status', 'latin1');
const STATUS_NAME_HUFFMAN = huffmanEncode('grpc-status');

function decodeInteger(block: Uint8Array, at: number, prefixBits: number): [number, number] {
  const max = (1 << prefixBits) - 1;
  let value = (block[at] ?? 0) & max;
  let next = at + 1;
  if (value < max) return [value, next];
  let shift = 0;
  let byte: number;
  do {
    byte = block[next++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while ((byte & 0x80) !== 0 && next < block.length);
  return [value, next];
}

function decodeString(block: Uint8Array, at: number): { bytes: Uint8Array; huffman: boolean; next: number } {
  const huffman = ((block[at] ?? 0) & 0x80) !== 0;
  const [length, start] = decodeInteger(block, at, 7);
  return { bytes: block.subarray(start, start + length), huffman, next: start + length };
}

/**
 * The `grpc-status` value in a header block, or undefined when it has none. Assumes the peer keeps no
 * dynamic table (names by index are then static ones, none of which is `grpc-status`). A Huffman-coded
 * value (never shorter for a status code, so not sent that way) reads as `'?'`.
 */
export function grpcStatusIn(block: Uint8Array): string | undefined {
  let status: string | undefined;
  let at = 0;
  while (at < block.length) {
    const first = block[at] ?? 0;
    if ((first & 0x80) !== 0) {
      at = decodeInteger(block, at, 7)[1]; // indexed field
      continue;
    }
    if ((first & 0xe0) === 0x20) {
      at = decodeInteger(block, at, 5)[1]; // dynamic table size update
      continue;
    }
    const [nameIndex, afterIndex] = decodeInteger(block, at, (first & 0x40) !== 0 ? 6 : 4);
    let isStatus = false;
    at = afterIndex;
    if (nameIndex === 0) {
      const name = decodeString(block, at);
      isStatus = Buffer.from(name.bytes).equals(name.huffman ? STATUS_NAME_HUFFMAN : STATUS_NAME);
      at = name.next;
    }
    const value = decodeString(block, at);
    if (isStatus) status = value.huffman ? '?' : Buffer.from(value.bytes).toString('latin1');
    at = value.next;
  }
  return status;
}
