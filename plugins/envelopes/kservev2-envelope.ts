import {
  SluiceError,
  flattenJsonData,
  inferJsonShape,
  type Envelope,
  type EnvelopeContext,
  type TensorSpec,
} from '../../src/plugins/sdk/index.js';
import { isJsonObject, parseJsonBody } from './json-body.js';

const EXPECTED = '{"inputs": [{"name", "shape", "datatype", "data"}, ...]} (Open Inference Protocol JSON)';

/** One OIP output tensor for a JSON value the handler answered under `name`. */
function outputTensor(name: string, value: unknown, specs: readonly TensorSpec[]): Record<string, unknown> {
  const spec = specs.find((s) => s.name === name);
  if (typeof value === 'string') return { name, datatype: 'BYTES', shape: [1], data: [value] };
  if (typeof value === 'number' || typeof value === 'boolean') {
    return { name, datatype: spec?.datatype ?? (typeof value === 'boolean' ? 'BOOL' : 'FP32'), shape: [1], data: [value] };
  }
  const shape = inferJsonShape(value, `output \`${name}\``);
  const data = flattenJsonData(value, `output \`${name}\``);
  const datatype = spec?.datatype ?? (data.every((d) => typeof d === 'string') ? 'BYTES' : 'FP32');
  return { name, datatype, shape, data };
}

/**
 * The `kservev2` envelope: an Open Inference Protocol JSON request is the handler's one request (the
 * passthrough handler reads its `inputs` as tensors), and the handler's answer becomes OIP `outputs`: each
 * key of an object answer is an output, typed from the model's output specs where they name it; a list
 * answered for a model with one output is that output; anything else is one BYTES output of its JSON.
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
