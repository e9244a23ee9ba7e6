import { hasOwnKey, ownValue, setOwn } from '../../sdk/collections/own-property.js';
import { SluiceError } from '../../sdk/errors/index.js';
import { inferJsonShape, flattenJsonData, tensorFromJsonValues, type Tensor } from '../../sdk/tensor/index.js';
import type { WorkflowDefinition, WorkflowInputSpec } from '../../workflow/index.js';
import { isTensorValue, workflowValueToJson } from './workflow-json.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * An OIP input tensor as the value a workflow input of `spec` takes: the tensor itself for tensor inputs,
 * its single element as bytes, a string, a number or a boolean for those input types, its elements for a
 * list.
 */
function oipTensorToWorkflowInput(tensor: Tensor, spec: WorkflowInputSpec | undefined): unknown {
  const type = spec?.type ?? 'tensor';
  const elements: readonly (Uint8Array | number | bigint)[] =
    tensor.datatype === 'BYTES' ? (tensor.data as readonly Uint8Array[]) : Array.from(tensor.data as ArrayLike<number | bigint>);
  const first = elements[0];
  switch (type) {
    case 'bytes':
      return first instanceof Uint8Array ? first : tensor;
    case 'string':
      return first instanceof Uint8Array ? decoder.decode(first) : String(first);
    case 'number':
    case 'integer':
      return typeof first === 'bigint' ? Number(first) : first;
    case 'boolean':
      return first === 1 || first === 1n;
    case 'list':
      return elements.map((e) => (e instanceof Uint8Array ? decoder.decode(e) : typeof e === 'bigint' ? Number(e) : e));
    default:
      return tensor;
  }
}

/**
 * A workflow's request inputs from OIP input tensors, each as {@link oipTensorToWorkflowInput} reads it; an
 * input given twice is refused (`SLUICE_WORKFLOW_INPUT_INVALID`), as a model's is, rather than one of its
 * values being dropped.
 */
export function workflowInputsOfOipTensors(workflow: WorkflowDefinition, tensors: readonly Tensor[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const tensor of tensors) {
    if (hasOwnKey(inputs, tensor.name)) {
      throw new SluiceError('SLUICE_WORKFLOW_INPUT_INVALID', `workflow \`${workflow.name}\`: input \`${tensor.name}\` is given more than once; send each input once`);
    }
    setOwn(inputs, tensor.name, oipTensorToWorkflowInput(tensor, ownValue(workflow.inputs, tensor.name)));
  }
  return inputs;
}

/**
 * Checks, before the run, that every output an OIP request asks for is one `workflow` declares, as a
 * model's inference does: `SLUICE_TENSOR_UNKNOWN_OUTPUT` naming the workflow's outputs otherwise. (A
 * declared output whose every source was skipped is simply absent from the answer.)
 */
export function checkRequestedWorkflowOutputs(workflow: WorkflowDefinition, requested: readonly string[] | undefined): void {
  const declared = Object.keys(workflow.outputs);
  for (const name of requested ?? []) {
    if (!declared.includes(name)) {
      throw new SluiceError(
        'SLUICE_TENSOR_UNKNOWN_OUTPUT',
        `workflow \`${workflow.name}\` has no output \`${name}\`; its outputs are: ${declared.join(', ')}`,
        { output: name, expected: declared },
      );
    }
  }
}

/**
 * A workflow output as an OIP tensor: tensors as they are, strings and byte strings as BYTES, booleans as
 * BOOL, numbers and (rectangular) lists of numbers as FP64, anything else as one BYTES element of JSON.
 */
export function workflowOutputToOipTensor(name: string, value: unknown): Tensor {
  if (isTensorValue(value)) return { ...value, name };
  if (typeof value === 'string') return { name, datatype: 'BYTES', shape: [1], data: [encoder.encode(value)] };
  if (value instanceof Uint8Array) return { name, datatype: 'BYTES', shape: [1], data: [value] };
  if (typeof value === 'boolean') return { name, datatype: 'BOOL', shape: [1], data: new Uint8Array([value ? 1 : 0]) };
  if (typeof value === 'number') return { name, datatype: 'FP64', shape: [1], data: new Float64Array([value]) };
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return { name, datatype: 'BYTES', shape: [value.length], data: value.map((v) => encoder.encode(v)) };
  }
  try {
    const shape = inferJsonShape(value, `output \`${name}\``);
    const values = flattenJsonData(value, `output \`${name}\``);
    if (shape.length > 0 && values.every((v) => typeof v === 'number')) return tensorFromJsonValues(name, 'FP64', shape, values);
  } catch {
    // not a rectangular list of numbers: sent as JSON below
  }
  return { name, datatype: 'BYTES', shape: [1], data: [encoder.encode(JSON.stringify(workflowValueToJson(value)))] };
}
