/** A binary-extension request body: the JSON header followed by raw tensor bytes, and its header length. */
export function binaryRequestBody(header: unknown, chunks: readonly Uint8Array[]): { body: Buffer; headerLength: number } {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  return { body: Buffer.concat([json, ...chunks]), headerLength: json.byteLength };
}

/** Splits a binary-extension response into its parsed JSON header and the bytes after it. */
export async function readBinaryResponse(res: Response): Promise<{ header: unknown; binary: Buffer }> {
  const length = Number(res.headers.get('inference-header-content-length'));
  const bytes = Buffer.from(await res.arrayBuffer());
  return { header: JSON.parse(bytes.toString('utf8', 0, length)) as unknown, binary: bytes.subarray(length) };
}
