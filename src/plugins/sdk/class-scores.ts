import { SluiceError } from '../../common/errors/index.js';
import { tensorToJsonValues, type Tensor } from '../../common/tensor/index.js';

/** One class of a classification answer. */
export interface RankedClass {
  readonly label: string;
  readonly probability: number;
}

/** Softmax of one row of logits; the largest logit is subtracted first so large logits do not overflow. */
export function softmax(logits: readonly number[]): number[] {
  const max = logits.reduce((m, v) => Math.max(m, v), -Infinity);
  const exps = logits.map((v) => Math.exp(v - max));
  const sum = exps.reduce((s, v) => s + v, 0);
  return exps.map((v) => v / sum);
}

/**
 * The rows of class scores in a `[N, C]` float output: one list of C numbers per row. Any other rank
 * or datatype throws `SLUICE_HANDLER_FAILED` naming `handler` and the output.
 */
export function scoreRows(output: Tensor, handler: string): number[][] {
  const float = output.datatype === 'FP32' || output.datatype === 'FP64' || output.datatype === 'FP16';
  const [rows, classes] = output.shape;
  if (!float || output.shape.length !== 2 || rows === undefined || classes === undefined) {
    throw new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `${handler}: output \`${output.name}\` is ${output.datatype} [${output.shape.join(', ')}]; class scores must be a float tensor [N, classes]`,
      { handler, output: output.name },
    );
  }
  const values = tensorToJsonValues(output) as number[];
  return Array.from({ length: rows }, (_, r) => values.slice(r * classes, (r + 1) * classes));
}

/**
 * The `topK` most probable classes, most probable first (ties keep class order), named by `labels`;
 * a class without a label is named by its index.
 */
export function topClasses(probabilities: readonly number[], labels: readonly string[] | undefined, topK: number): RankedClass[] {
  return probabilities
    .map((probability, index) => ({ label: labels?.[index] ?? String(index), probability, index }))
    .sort((a, b) => b.probability - a.probability || a.index - b.index)
    .slice(0, Math.max(0, topK))
    .map(({ label, probability }) => ({ label, probability }));
}

/**
 * TorchServe's answer shape for classifiers, `{label: probability}`, keys in rank order. JSON objects
 * list integer-like keys in numeric order, so classes named by index lose the ranking there.
 */
export function classProbabilities(ranked: readonly RankedClass[]): Record<string, number> {
  return Object.fromEntries(ranked.map(({ label, probability }) => [label, probability]));
}
