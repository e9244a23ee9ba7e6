import { nestJsonValues, tensorToJsonValues, type Tensor } from '../../sdk/tensor/index.js';

/** Whether a workflow value is a tensor (rather than raw bytes, JSON data, a list or an object). */
export function isTensorValue(value: unknown): value is Tensor {
  return (
    typeof value === 'object' &&
    value !== null &&
    'datatype' in value &&
    'shape' in value &&
    'data' in value &&
    Array.isArray((value as { shape: unknown }).shape)
  );
}

/**
 * A workflow value as JSON: tensors become nested lists following their shape, raw bytes become base64
 * strings, lists and objects are converted element by element, JSON data passes through.
 */
export function workflowValueToJson(value: unknown): unknown {
  if (isTensorValue(value)) return nestJsonValues(tensorToJsonValues(value), value.shape);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(workflowValueToJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, workflowValueToJson(item)]));
  }
  return value;
}
