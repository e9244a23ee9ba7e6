import {
  SluiceError,
  flattenJsonData,
  inferJsonShape,
  type Envelope,
  type EnvelopeContext,
  type TensorSpec,
} from '../../src/sdk/index.js';
import { isJsonObject, parseJsonBody } from './json-body.js';

const EXPECTED = '{"inputs": [{"name", "shape", "datatype", "data"}, ...]} (Open Inference Protocol JSON)';

/** The OIP datatype of tensor elements that are all numbers, all booleans or all strings; undefined for a mix or anything else. */
function elementDatatype(data: readonly unknown[], spec: TensorSpec | undefined): string | undefined {
  if (data.every((d) => typeof d === 'number')) return spec?.datatype ?? 'FP32';
  if (data.every((d) => typeof d === 'boolean')) return spec?.datatype ?? 'BOOL';
  if (data.every((d) => typeof d === 'string')) return 'BYTES';
  return undefined;
}

/** The shape and elements of `value` when it is a rectangular list (or a scalar), else undefined. */
function tensorLayout(value: unknown, name: string): { shape: number[]; data: unknown[] } | undefined {
  if (!Array.isArray(value)) return { shape: [1], data: [value] };
  try {
    return { shape: inferJsonShape(value, `output \`${name}\``), data: flattenJsonData(value, `output \`${name}\``) };
  } catch {
    return undefined; // ragged: not a tensor
  }
}

/**
 * One OIP output tensor for a JSON value the handler answered under `name`: numbers, booleans or strings
 * (alone or in a rectangular list) as such, typed from the model's spec of that name where it has one;
 * anything else (objects, ragged or mixed lists, null) as one BYTES element holding its JSON.
 */
function outputTensor(name: string, value: unknown, specs: readonly TensorSpec[]): Record<string, unknown> {
  const layout = tensorLayout(value, name);
  const datatype = layout && elementDatatype(layout.data, specs.find((s) => s.name === name));
  if (layout === undefined || datatype === undefined) return { name, datatype: 'BYTES', shape: [1], data: [JSON.stringify(value)] };
  return { name, datatype, ...layout };
}

/**
 * The `kservev2` envelope: an Open Inference Protocol JSON request is the handler's one request (the
 * passthrough handler reads its `inputs` as tensors), and the handler's answer becomes OIP `outputs`: each
 * key of an object answer is an output, typed from the model's output specs where they name it; a list
 * answered for a model with one output is that output; anything else is one BYTES output of its JSON, as
 * is any value that is not a tensor of numbers, booleans or strings.
 */
export const kserveV2Envelope: Envelope = {
  name: 'kservev2',
  decode(request) {
    const body = parseJsonBody(request, 'kservev2', EXPECTED);
    if (!isJsonObject(body) || !Array.isArray(body['inputs'])) {
      throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the kservev2 envelope expects ${EXPECTED}; the body has no \`inputs\` list`, { envelope: 'kservev2' });
    }
    return [{ body, contentType: 'application/json' }];
  },
  encode(responses, context: EnvelopeContext) {
    const [answer] = responses;
    const specs = context.model.outputs;
    const [onlySpec] = specs;
    const outputs = isJsonObject(answer)
      ? Object.entries(answer).map(([name, value]) => outputTensor(name, value, specs))
      : specs.length === 1 && onlySpec !== undefined && Array.isArray(answer)
        ? [outputTensor(onlySpec.name, answer, specs)]
        : [{ name: 'output', datatype: 'BYTES', shape: [1], data: [JSON.stringify(answer)] }];
    return { body: { model_name: context.model.name, model_version: context.model.version, outputs } };
  },
};
