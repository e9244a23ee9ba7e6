import { SluiceError } from '../errors/index.js';
import {
  flattenJsonData,
  inferJsonShape,
  isDatatype,
  tensorFromJsonValues,
  type Tensor,
  type TensorSpec,
} from '../tensor/index.js';
import { jsonTensorShape } from '../tensor/json-shape.js';
import { shapeText } from '../tensor/shape-text.js';
import type { ModelDescription } from '../model/model-description.js';

/** How the client laid out its body: one instance, a batch it shaped itself, or KServe `instances`. */
export type BodyForm = 'single' | 'batch' | 'instances';

/** A JSON request body turned into model inputs. */
export interface DecodedJsonBody {
  readonly inputs: Tensor[];
  readonly form: BodyForm;
}

const ACCEPTED_FORMS =
  'send a JSON array, {"data": …}, {"inputs": {"<name>": …}}, {"inputs": [OIP tensors]} or {"instances": […]}';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function specDatatype(spec: TensorSpec, model: ModelDescription): Exclude<TensorSpec['datatype'], 'BF16'> {
  if (spec.datatype === 'BF16') {
    throw new SluiceError(
      'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
      `input \`${spec.name}\` of model \`${model.name}\` is BF16, which Sluice cannot carry; export the model with FP16 or FP32 inputs`,
    );
  }
  return spec.datatype;
}

/** How one input was sent: one instance (a dimension short), a batch, or neither (left to shape validation). */
type InputLayout = 'single' | 'batch' | 'other';

function layoutOf(spec: TensorSpec, rank: number): InputLayout {
  if (spec.shape[0] !== -1) return 'other';
  if (rank === spec.shape.length - 1) return 'single';
  return rank === spec.shape.length ? 'batch' : 'other';
}

function jsonTensor(spec: TensorSpec, value: unknown, shape: readonly number[], model: ModelDescription): Tensor {
  const where = `input \`${spec.name}\``;
  return tensorFromJsonValues(spec.name, specDatatype(spec, model), shape, flattenJsonData(value, where), where);
}

/**
 * Whether `[]` sent for `spec` holds no instance: a batch of none for an input of rank 1, or one
 * instance with an empty row that the spec cannot take (a fixed row dimension, or more of them). Only an
 * input of shape `[-1, -1]` (or `[-1, 0]`) reads `[]` as one instance whose row is empty, such as an empty
 * token sequence.
 */
function holdsNoInstance(spec: TensorSpec, value: unknown): boolean {
  if (!Array.isArray(value) || value.length > 0 || spec.shape[0] !== -1) return false;
  return !(spec.shape.length === 2 && (spec.shape[1] === -1 || spec.shape[1] === 0));
}

/**
 * Builds one input from nested JSON (`sent` says where it came from), adding a batch dimension of 1 when
 * the client sent a single instance.
 */
function tensorForSpec(spec: TensorSpec, value: unknown, model: ModelDescription, sent: string): { tensor: Tensor; layout: InputLayout } {
  if (holdsNoInstance(spec, value)) {
    const row = spec.shape.slice(1);
    const instance = row.length === 0 ? 'one instance, a single value,' : `one instance of shape ${shapeText(row)}`;
    throw new SluiceError(
      'SLUICE_REQUEST_INVALID',
      `the body holds no instance: ${sent} is an empty list; input \`${spec.name}\` of model \`${model.name}\` has shape ${shapeText(spec.shape)} (-1 = any size), so send ${instance} or a list of them`,
    );
  }
  const shape = inferJsonShape(value, `input \`${spec.name}\``);
  const layout = layoutOf(spec, shape.length);
  return { tensor: jsonTensor(spec, value, layout === 'single' ? [1, ...shape] : shape, model), layout };
}

/** Builds one input from a KServe `instances` column: the list is the batch, so its shape is taken as sent. */
function tensorForColumn(spec: TensorSpec, column: unknown[], model: ModelDescription): Tensor {
  return jsonTensor(spec, column, inferJsonShape(column, `input \`${spec.name}\``), model);
}

function onlyInput(model: ModelDescription): TensorSpec {
  const [spec, ...rest] = model.inputs;
  if (spec === undefined || rest.length > 0) {
    const names = model.inputs.map((s) => s.name).join(', ');
    throw new SluiceError(
      'SLUICE_REQUEST_INVALID',
      `model \`${model.name}\` has ${model.inputs.length} inputs (${names}); send {"inputs": {"<name>": …}} with one entry per input`,
    );
  }
  return spec;
}

function specNamed(model: ModelDescription, name: string): TensorSpec {
  const spec = model.inputs.find((s) => s.name === name);
  if (spec === undefined) {
    throw new SluiceError(
      'SLUICE_TENSOR_UNKNOWN_INPUT',
      `model \`${model.name}\` has no input \`${name}\`; its inputs are: ${model.inputs.map((s) => s.name).join(', ')}`,
      { input: name },
    );
  }
  return spec;
}

/** One entry of `{"inputs": [OIP tensors]}`, its shape checked as the Open Inference Protocol's decoder checks it. */
function decodeOipTensor(value: unknown, index: number): Tensor {
  if (!isRecord(value) || typeof value['name'] !== 'string' || !Array.isArray(value['shape'])) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `inputs[${index}] must be an object with name, datatype, shape and data`);
  }
  const { name, datatype } = value as { name: string; datatype: unknown };
  if (!isDatatype(datatype) || datatype === 'BF16') {
    throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `input \`${name}\`: datatype ${JSON.stringify(datatype)} is not supported`);
  }
  const shape = jsonTensorShape(value['shape'], `inputs[${index}]`);
  const where = `input \`${name}\``;
  return tensorFromJsonValues(name, datatype, shape, flattenJsonData(value['data'], where, shape), where);
}

/**
 * The input tensors of KServe instances, one row per instance: rows of a single-input model's data, or
 * objects with one entry per input. `named(i)` is how errors name instance `i`.
 */
function instanceTensors(instances: unknown[], model: ModelDescription, named: (index: number) => string): Tensor[] {
  if (model.inputs.length === 1 && !instances.every(isRecord)) return [tensorForColumn(onlyInput(model), instances, model)];
  const notObject = instances.findIndex((instance) => !isRecord(instance));
  if (notObject >= 0) {
    const names = model.inputs.map((s) => s.name).join(', ');
    throw new SluiceError(
      'SLUICE_REQUEST_INVALID',
      `${named(notObject)} is not an object; model \`${model.name}\` has ${model.inputs.length} inputs (${names}), so each instance must be an object with one entry per input`,
    );
  }
  const records = instances as Record<string, unknown>[];
  return model.inputs.map((spec) => {
    const column = records.map((instance, i) => {
      if (!(spec.name in instance)) {
        throw new SluiceError('SLUICE_TENSOR_MISSING_INPUT', `${named(i)} lacks input \`${spec.name}\``, { input: spec.name });
      }
      return instance[spec.name];
    });
    return tensorForColumn(spec, column, model);
  });
}

function decodeInstances(instances: unknown[], model: ModelDescription): DecodedJsonBody {
  if (instances.length === 0) throw new SluiceError('SLUICE_REQUEST_INVALID', '"instances" is empty; send at least one instance');
  return { inputs: instanceTensors(instances, model, (i) => `instances[${i}]`), form: 'instances' };
}

/**
 * Decodes one entry of a KServe v1 `instances` list handed over as a request of its own
 * (`HandlerRequest.instance`): exactly as `{"instances": [instance]}` decodes (a row of a single-input
 * model's data, taken as sent with a batch dimension of 1 added, or an object with one entry per
 * input), with form `single`, so the answer is this instance's prediction alone.
 */
export function decodeJsonInstance(instance: unknown, model: ModelDescription): DecodedJsonBody {
  return { inputs: instanceTensors([instance], model, () => 'the instance'), form: 'single' };
}

function decodeNamedInputs(inputs: Record<string, unknown>, model: ModelDescription): DecodedJsonBody {
  const decoded = Object.entries(inputs).map(([name, value]) => ({ name, ...tensorForSpec(specNamed(model, name), value, model, `the "inputs" entry \`${name}\``) }));
  const single = decoded.filter((d) => d.layout === 'single').map((d) => `\`${d.name}\``);
  const batch = decoded.filter((d) => d.layout === 'batch').map((d) => `\`${d.name}\``);
  if (single.length > 0 && batch.length > 0) {
    throw new SluiceError(
      'SLUICE_REQUEST_INVALID',
      `the inputs mix a single instance (${single.join(', ')}) and a batch (${batch.join(', ')}); send all of them the same way, each one instance or each with the batch dimension`,
    );
  }
  const form = decoded.length > 0 && decoded.every((d) => d.layout === 'single') ? 'single' : 'batch';
  return { inputs: decoded.map((d) => d.tensor), form };
}

/** The keys each of which makes a body of its own form. */
const FORM_KEYS = ['data', 'inputs', 'instances'] as const;

/** A body giving two forms at once is refused: taking one would silently drop the other's data. */
function refuseSeveralForms(body: Record<string, unknown>): void {
  const given = FORM_KEYS.filter((key) => key in body).map((key) => `"${key}"`);
  if (given.length < 2) return;
  const named = given.length === 2 ? `both ${given.join(' and ')}` : `${given.slice(0, -1).join(', ')} and ${given[given.length - 1] ?? ''}`;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the body has ${named}; send only one of them: ${ACCEPTED_FORMS}`);
}

/**
 * Decodes the JSON bodies Sluice accepts on `/predictions` and KServe v1 into input tensors, using the
 * model's input specs for names and datatypes and taking shapes from the data:
 * - a bare array or `{"data": …}` for a single-input model;
 * - `{"inputs": {"<name>": …}}` for several inputs;
 * - `{"inputs": [{name, datatype, shape, data}]}` (OIP tensors);
 * - `{"instances": […]}` (KServe v1: a list of rows, or of `{"<name>": …}` objects).
 * Outside `instances`, a value one dimension short of a model whose first dimension is variable is one
 * instance: a batch dimension of 1 is added, and {@link BodyForm} `single` tells postprocessing to take
 * it off again; named inputs must all be sent the same way. `instances` is always the batch itself, so
 * its shape is taken as sent and a mismatch is left to shape validation. A body with more than one of
 * `data`, `inputs` and `instances`, or an empty list where an instance is due, is refused.
 */
export function decodeJsonRequestBody(body: unknown, model: ModelDescription): DecodedJsonBody {
  if (Array.isArray(body)) {
    const { tensor, layout } = tensorForSpec(onlyInput(model), body, model, 'the body');
    return { inputs: [tensor], form: layout === 'single' ? 'single' : 'batch' };
  }
  if (!isRecord(body)) throw new SluiceError('SLUICE_REQUEST_INVALID', `the body is not a tensor request; ${ACCEPTED_FORMS}`);
  refuseSeveralForms(body);
  if ('instances' in body) {
    const instances = body['instances'];
    if (!Array.isArray(instances)) throw new SluiceError('SLUICE_REQUEST_INVALID', '"instances" must be a list');
    return decodeInstances(instances, model);
  }
  if ('data' in body) {
    const { tensor, layout } = tensorForSpec(onlyInput(model), body['data'], model, '"data"');
    return { inputs: [tensor], form: layout === 'single' ? 'single' : 'batch' };
  }
  if (!('inputs' in body)) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `the body has none of the keys data, inputs or instances; ${ACCEPTED_FORMS}`);
  }
  const inputs = body['inputs'];
  if (Array.isArray(inputs)) return { inputs: inputs.map(decodeOipTensor), form: 'batch' };
  if (isRecord(inputs)) return decodeNamedInputs(inputs, model);
  throw new SluiceError('SLUICE_REQUEST_INVALID', '"inputs" must be an object mapping input names to data, or a list of OIP tensors');
}
