import { tensorToJsonValues } from '../../sdk/tensor/index.js';
import { isTensor } from './tensor-value.js';

/**
 * A workflow value the way `when` expressions see it: a tensor becomes a map
 * `{ datatype, shape, data }` with its elements flat, row-major, as JSON values; other typed arrays
 * become lists; raw bytes stay bytes; lists and mappings are converted element by element.
 */
export function conditionValue(value: unknown): unknown {
  if (isTensor(value)) return { datatype: value.datatype, shape: [...value.shape], data: tensorToJsonValues(value) };
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<unknown>);
  if (Array.isArray(value)) return value.map(conditionValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, conditionValue(v)]));
  }
  return value === undefined ? null : value;
}
