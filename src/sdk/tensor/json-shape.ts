import { SluiceError } from '../errors/index.js';
import { shortenedText } from '../text/shortened-text.js';

const SHAPE_EXPECTED = 'a shape is a list of non-negative integers, e.g. [1, 4]';

/** A dimension as the message quotes it: never more than a short string, whatever was sent. */
function dimText(dim: unknown): string {
  if (typeof dim === 'string') return JSON.stringify(shortenedText(dim));
  if (Array.isArray(dim)) return 'a list';
  if (typeof dim === 'object' && dim !== null) return 'an object';
  return String(dim);
}

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', message);
}

/**
 * The `shape` of a tensor sent as JSON (an OIP input, `where` naming it, `inputs[0]`): a list of
 * non-negative integers, each at most 2^53 − 1, so that no dimension was rounded on its way through JSON
 * and element counts stay exact. Anything else is `SLUICE_REQUEST_INVALID` naming the dimension.
 */
export function jsonTensorShape(value: unknown, where: string): number[] {
  if (!Array.isArray(value)) throw invalid(`${where}.shape must be a list of non-negative integers, e.g. [1, 4]`);
  for (let i = 0; i < value.length; i++) {
    const dim: unknown = value[i];
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 0) throw invalid(`${where}.shape[${i}] is ${dimText(dim)}; ${SHAPE_EXPECTED}`);
    if (dim > Number.MAX_SAFE_INTEGER) throw invalid(`${where}.shape[${i}] is ${dim}, beyond 2^53 - 1 (a JSON number that large is not exact); ${SHAPE_EXPECTED}`);
  }
  return value as number[];
}
