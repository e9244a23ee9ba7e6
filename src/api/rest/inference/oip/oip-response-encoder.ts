import { tensorToJsonValues, tensorToRawBytes, type Tensor } from '../../../../sdk/tensor/index.js';

/** The JSON part of an OIP infer response. */
export interface OipResponseHeader {
  readonly model_name: string;
  readonly model_version: string;
  readonly id?: string;
  readonly outputs: readonly {
    readonly name: string;
    readonly datatype: string;
    readonly shape: readonly number[];
    readonly data?: unknown[];
    readonly parameters?: { readonly binary_data_size: number };
  }[];
}

/** An encoded response: JSON alone, or a JSON header followed by raw tensor bytes. */
export type EncodedOipResponse =
  | { readonly kind: 'json'; readonly body: OipResponseHeader }
  | { readonly kind: 'binary'; readonly body: Buffer; readonly headerLength: number };

/**
 * Encodes outputs as OIP JSON, switching to the binary tensor extension when any output is asked for as
 * binary: those outputs carry `binary_data_size` and their bytes follow the JSON header in output order.
 */
export function encodeOipResponse(
  model: { name: string; version: string; id?: string },
  outputs: readonly Tensor[],
  isBinary: (name: string) => boolean,
): EncodedOipResponse {
  const chunks: Uint8Array[] = [];
  const encoded = outputs.map((tensor) => {
    const base = { name: tensor.name, datatype: tensor.datatype, shape: tensor.shape };
    if (!isBinary(tensor.name)) return { ...base, data: tensorToJsonValues(tensor) };
    const bytes = tensorToRawBytes(tensor);
    chunks.push(bytes);
    return { ...base, parameters: { binary_data_size: bytes.byteLength } };
  });
  const header: OipResponseHeader = {
    model_name: model.name,
    model_version: model.version,
    ...(model.id !== undefined ? { id: model.id } : {}),
    outputs: encoded,
  };
  if (chunks.length === 0) return { kind: 'json', body: header };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  return { kind: 'binary', body: Buffer.concat([json, ...chunks]), headerLength: json.byteLength };
}
