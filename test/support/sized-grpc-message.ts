/**
 * `request` with `padding` characters appended to its `id` so that it serializes to exactly `bytes`
 * (a string field's length prefix grows with it, so the padding is found in a few steps). Throws when no
 * padding fits (a length prefix that grows by a byte exactly there): choose another size.
 */
export function paddedToSize<T extends { readonly id: string }>(request: T, bytes: number, serialize: (request: T) => Uint8Array): T {
  let padding = 0;
  for (let attempt = 0; attempt < 8; attempt++) {
    const padded = { ...request, id: request.id + 'x'.repeat(padding) };
    const size = serialize(padded).byteLength;
    if (size === bytes) return padded;
    padding += bytes - size;
    if (padding < 0) throw new Error(`the request serializes to ${String(size)} bytes before any padding, more than ${String(bytes)}`);
  }
  throw new Error(`no padding of the id makes the request exactly ${String(bytes)} bytes; choose another size`);
}
