import {
  SluiceError,
  tensorRows,
  type BodyForm,
  type Handler,
  type HandlerContext,
  type HandlerRequest,
  type HandlerResult,
  type Tensor,
} from '../../src/sdk/index.js';
import { prepareJsonRequest } from './request-body.js';

/** One classified instance. */
export interface Classification {
  readonly label: string;
  readonly probabilities: Readonly<Record<string, number>>;
}

const PASSTHROUGH_HINT = 'use handler: passthrough for raw outputs';

/** A float output with one row of scores per instance. */
function scoresLike(t: Tensor): boolean {
  return (t.datatype === 'FP32' || t.datatype === 'FP64' || t.datatype === 'FP16') && t.shape.length >= 2;
}

/**
 * Picks the class scores: an output named `probabilities`, else the first float output with one score
 * per label, else (without labels) the first float output of rank 2 or more. Shapes are the tensors'
 * own, as the declared ones may leave the class dimension variable.
 */
function probabilitiesOutput(outputs: readonly Tensor[], labels: readonly string[], model: string): Tensor {
  const named = outputs.find((t) => t.name === 'probabilities' && scoresLike(t));
  const classes = labels.length;
  if (named !== undefined) {
    const got = named.shape[named.shape.length - 1];
    if (classes > 0 && got !== classes) {
      throw new SluiceError(
        'SLUICE_HANDLER_FAILED',
        `classifier handler: output \`probabilities\` of model \`${model}\` has ${String(got)} classes but the labels file names ${classes}; fix the labels or ${PASSTHROUGH_HINT}`,
      );
    }
    return named;
  }
  const found = outputs.find((t) => scoresLike(t) && (classes === 0 || t.shape[t.shape.length - 1] === classes));
  if (found !== undefined) return found;
  const wanted = classes > 0 ? `float output of ${classes} classes` : 'float output of rank 2 or more to read class scores from';
  throw new SluiceError('SLUICE_HANDLER_FAILED', `classifier handler: model \`${model}\` has no ${wanted} (name it \`probabilities\`); ${PASSTHROUGH_HINT}`);
}

function classify(row: unknown, labels: readonly string[]): Classification {
  const scores = row as number[];
  let best = 0;
  for (let i = 1; i < scores.length; i++) if ((scores[i] ?? -Infinity) > (scores[best] ?? -Infinity)) best = i;
  const name = (i: number): string => labels[i] ?? String(i);
  return { label: name(best), probabilities: Object.fromEntries(scores.map((p, i) => [name(i), p])) };
}

/**
 * Classification models (softmax output): answers `{label, probabilities}` per instance with the
 * names from the manifest's `labels` file, or class indices when there is none.
 */
export const classifierHandler: Handler<BodyForm> = {
  name: 'classifier',
  // Both methods are async so that bad input becomes a rejected promise, never a synchronous throw.
  async preprocess(requests: readonly HandlerRequest[], context: HandlerContext) {
    return Promise.resolve(requests.map((request) => prepareJsonRequest(request, context)));
  },
  async postprocess(results: readonly HandlerResult<BodyForm>[], context: HandlerContext) {
    const labels = context.model.labels ?? [];
    const answers = results.map(({ outputs, state }) => {
      const rows = tensorRows(probabilitiesOutput(outputs, labels, context.model.name)).map((row) => classify(row, labels));
      return state === 'single' ? rows[0] : rows;
    });
    return Promise.resolve(answers);
  },
};
