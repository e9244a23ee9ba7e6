import {
  SluiceError,
  tensorRows,
  type BodyForm,
  type Handler,
  type HandlerContext,
  type HandlerRequest,
  type HandlerResult,
  type Tensor,
} from '../../src/plugins/sdk/index.js';
import { prepareJsonRequest } from './request-body.js';

/** One classified instance. */
export interface Classification {
  readonly label: string;
  readonly probabilities: Readonly<Record<string, number>>;
}

function probabilitiesOutput(outputs: readonly Tensor[], classes: number, model: string): Tensor {
  const float = (t: Tensor): boolean => t.datatype === 'FP32' || t.datatype === 'FP64' || t.datatype === 'FP16';
  const found =
    outputs.find((t) => t.name === 'probabilities' && float(t)) ?? outputs.find((t) => float(t) && t.shape[t.shape.length - 1] === classes);
  if (found === undefined) {
    throw new SluiceError(
      'SLUICE_HANDLER_FAILED',
      `classifier handler: model \`${model}\` has no float output of ${classes} classes (name it \`probabilities\`); use handler: passthrough for raw outputs`,
    );
  }
  return found;
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
  preprocess(requests: readonly HandlerRequest[], context: HandlerContext) {
    return Promise.resolve(requests.map((request) => prepareJsonRequest(request, context)));
  },
  postprocess(results: readonly HandlerResult<BodyForm>[], context: HandlerContext) {
    const labels = context.model.labels ?? [];
    const classes = labels.length > 0 ? labels.length : (context.model.outputs[0]?.shape.at(-1) ?? 0);
    return Promise.resolve(
      results.map(({ outputs, state }) => {
        const rows = tensorRows(probabilitiesOutput(outputs, classes, context.model.name)).map((row) => classify(row, labels));
        return state === 'single' ? rows[0] : rows;
      }),
    );
  },
};
