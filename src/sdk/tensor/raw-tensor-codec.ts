import { SluiceError } from '../errors/index.js';
import { bytesElementOf } from './bytes-elements.js';
import { NUMERIC_DATATYPE_INFO, type SupportedDatatype } from './datatype.js';
import { shapeText } from './shape-text.js';
import { elementCount, type Tensor } from './tensor.js';

/**
 * Raw tensor bytes as the OIP binary extension and gRPC `raw_*_contents` carry them: numeric elements
 * little-endian, row-major; BYTES elements each prefixed by a 4-byte little-endian length.
 * Sluice runs on little-endian hosts only (x86-64, arm64), so typed arrays map bytes one to one.
 * Numeric data that is aligned for its element size is a view of `bytes` (no copy): the caller must not
 * change `bytes` afterwards. BYTES elements are views of one copy of `bytes`, so posting them to a thread
 * copies the tensor's bytes rather than the whole body they came in.
 */
export function tensorFromRawBytes(
  name: string,
  datatype: SupportedDatatype,
  shape: readonly number[],
  bytes: Uint8Array,
  where = `input \`${name}\``,
): Tensor {
  const count = elementCount(shape);
  if (datatype === 'BYTES') return { name, datatype, shape: [...shape], data: splitLengthPrefixed(bytes, count, where) };
  const info = NUMERIC_DATATYPE_INFO[datatype];
  const expected = count * info.bytes;
  if (bytes.byteLength !== expected) {
    throw new SluiceError(
      'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
      `${where}: shape ${shapeText(shape)} of ${datatype} needs ${expected} bytes, got ${bytes.byteLength}`,
      { expected, got: bytes.byteLength },
    );
  }
  if (bytes.byteOffset % info.bytes === 0) {
    // Aligned (the HTTP layer places binary tensors so): a view, no copy.
    return { name, datatype, shape: [...shape], data: new info.array(bytes.buffer, bytes.byteOffset, count) };
  }
  const aligned = new Uint8Array(expected);
  aligned.set(bytes);
  return { name, datatype, shape: [...shape], data: new info.array(aligned.buffer, 0, count) };
}

function splitLengthPrefixed(bytes: Uint8Array, count: number, where: string): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const memory = bytes.slice();
  const out: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.byteLength) {
    // Stop at the first element too many: splitting the rest of a large body first would cost seconds.
    if (out.length === count) {
      throw new SluiceError(
        'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        `${where}: shape needs ${count} BYTES elements, but the data goes on for ${bytes.byteLength - offset} bytes after them`,
        { expected: count },
      );
    }
    if (offset + 4 > bytes.byteLength) {
      throw new SluiceError('SLUICE_TENSOR_DATA_LENGTH_MISMATCH', `${where}: BYTES element ${out.length} has a truncated 4-byte length prefix`);
    }
    const length = view.getUint32(offset, true);
    offset += 4;
    if (offset + length > bytes.byteLength) {
      throw new SluiceError(
        'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        `${where}: BYTES element ${out.length} declares ${length} bytes but only ${bytes.byteLength - offset} remain`,
      );
    }
    out.push(bytesElementOf(memory, offset, length));
    offset += length;
  }
  if (out.length !== count) {
    throw new SluiceError('SLUICE_TENSOR_DATA_LENGTH_MISMATCH', `${where}: shape needs ${count} BYTES elements, got ${out.length}`, {
      expected: count,
      got: out.length,
    });
  }
  return out;
}

/** A tensor's elements as raw bytes (see {@link tensorFromRawBytes} for the layout). */
export function tensorToRawBytes(tensor: Tensor): Uint8Array {
  if (tensor.datatype !== 'BYTES') {
    const data = tensor.data as ArrayBufferView;
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  const elements = tensor.data as readonly Uint8Array[];
  const total = elements.reduce((sum, e) => sum + 4 + e.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const element of elements) {
    view.setUint32(offset, element.byteLength, true);
    out.set(element, offset + 4);
    offset += 4 + element.byteLength;
  }
  return out;
}
