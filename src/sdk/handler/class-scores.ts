import { SluiceError } from '../errors/index.js';
import { tensorToJsonValues, type Tensor } from '../tensor/index.js';
import type { ModelDescription } from '../model/model-description.js';

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

/** How {@link rankOutputClasses} reads a classifier's answer. */
export interface RankOptions {
  /** The output holding the scores; the first of `outputs` when unset. */
  readonly output?: string;
  /** Whether the scores are logits (softmax is applied) rather than probabilities. */
  readonly softmax: boolean;
  readonly topK: number;
}

/**
 * The top classes of one request's outputs (one row): scores from the chosen output, softmax when
 * asked, names from the model's labels. Throws `SLUICE_HANDLER_FAILED` naming `handler` when the output
 * is missing, is not one row of float scores, or has another number of classes than the labels file.
 */
export function rankOutputClasses(outputs: readonly Tensor[], model: ModelDescription, options: RankOptions, handler: string): RankedClass[] {
  const output = options.output === undefined ? outputs[0] : outputs.find((t) => t.name === options.output);
  if (output === undefined) {
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${handler}: model \`${model.name}\` answered without output \`${options.output ?? '(any)'}\``, { handler });
  }
  const [row, ...more] = scoreRows(output, handler);
  if (row === undefined || more.length > 0) {
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${handler}: output \`${output.name}\` of model \`${model.name}\` has ${more.length + (row ? 1 : 0)} rows for one request`, {
      handler,
    });
  }
  const labels = model.labels;
  if (labels !== undefined && labels.length !== row.length) {
    throw new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `${handler}: output \`${output.name}\` of model \`${model.name}\` has ${row.length} classes but its labels file names ${labels.length}; fix the labels file`,
      { handler },
    );
  }
  return topClasses(options.softmax ? softmax(row) : row, labels, options.topK);
}
