import { nestJsonValues, tensorToJsonValues, type Tensor } from '../tensor/index.js';
import type { BodyForm } from './json-request-body.js';

/** One output tensor as nested JSON lists, split into rows along its first (batch) dimension. */
export function tensorRows(tensor: Tensor): unknown[] {
  const values = tensorToJsonValues(tensor);
  const [rows = 1, ...rowShape] = tensor.shape;
  if (tensor.shape.length === 0) return [values[0]];
  const rowSize = values.length / Math.max(rows, 1);
  return Array.from({ length: rows }, (_, r) => nestJsonValues(values.slice(r * rowSize, (r + 1) * rowSize), rowShape));
}

/**
 * Shapes model outputs into the JSON answer for a request of the given {@link BodyForm}:
 * one output answers its value, several answer `{"<name>": value}`; `single` drops the batch dimension;
 * `instances` answers a list with one prediction per instance.
 */
export function encodeJsonOutputs(outputs: readonly Tensor[], form: BodyForm): unknown {
  const rowsByOutput = outputs.map((tensor) => ({ name: tensor.name, rows: tensorRows(tensor) }));
  const pick = (select: (rows: unknown[]) => unknown): unknown => {
    const [only] = rowsByOutput;
    if (rowsByOutput.length === 1 && only) return select(only.rows);
    return Object.fromEntries(rowsByOutput.map(({ name, rows }) => [name, select(rows)]));
  };
  if (form === 'single') return pick((rows) => rows[0]);
  if (form === 'batch') return pick((rows) => rows);
  const count = rowsByOutput[0]?.rows.length ?? 0;
  return Array.from({ length: count }, (_, i) => pick((rows) => rows[i]));
}
