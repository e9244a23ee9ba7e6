import { SluiceError } from '../errors/index.js';

/**
 * The most values one output tensor may have when an answer spells them out one by one (as JSON
 * numbers, or as typed gRPC contents), 2^24. Each becomes a JavaScript value and then text: far beyond
 * this, building the answer exhausts the heap and takes the whole server down (a 17 000 × 17 000 FP32
 * output did), or fails deep in V8 as a bug would. Binary answers are not bound by it.
 */
export const MAX_SPELLED_OUT_VALUES = 16_777_216;

/**
 * Refuses, with `SLUICE_RESPONSE_TOO_LARGE`, an output of more than {@link MAX_SPELLED_OUT_VALUES}
 * values that an answer would spell out one by one; `binaryHint` says how this API sends it as bytes.
 */
export function checkSpelledOutSize(tensor: { readonly name: string; readonly data: { readonly length: number } }, binaryHint: string): void {
  const values = tensor.data.length;
  if (values <= MAX_SPELLED_OUT_VALUES) return;
  throw new SluiceError(
    'SLUICE_RESPONSE_TOO_LARGE',
    `output \`${tensor.name}\` holds ${values} values, more than the ${MAX_SPELLED_OUT_VALUES} an answer can spell out one by one; ${binaryHint}, or send fewer rows`,
    { output: tensor.name, values, max: MAX_SPELLED_OUT_VALUES },
  );
}
