import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { flattenJsonData, inferJsonShape, tensorFromJsonValues, type Tensor } from '../../sdk/tensor/index.js';
import type { WorkflowDefinition } from '../definition/workflow-definition.js';
import type { WorkflowInputSpec, WorkflowInputType } from '../definition/workflow-input-spec.js';
import { suggestName } from '../problems/did-you-mean.js';
import { describeValue } from '../values/describe-value.js';
import { formatShape, shapesCompatible } from '../values/shape-compatibility.js';
import { hasOwnKey, ownValue, setOwn } from '../../sdk/collections/own-property.js';
import { isWellFormedTensor } from '../values/tensor-value.js';

const TYPE_WORDS: Readonly<Record<Exclude<WorkflowInputType, 'tensor' | 'any'>, string>> = {
  bytes: 'raw bytes',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  list: 'a list',
  object: 'a mapping',
};

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !isWellFormedTensor(value);
}

function fitsType(type: Exclude<WorkflowInputType, 'tensor' | 'any'>, value: unknown): boolean {
  switch (type) {
    case 'bytes':
      return value instanceof Uint8Array;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}

function describeInput(value: unknown): string {
  if (isWellFormedTensor(value)) return `a ${value.datatype} tensor`;
  if (value instanceof Uint8Array) return 'raw bytes';
  return describeValue(value);
}

/** A tensor input's value as a tensor, or the problem with it. */
function tensorInput(name: string, spec: WorkflowInputSpec, value: unknown): Tensor | string {
  const where = `input \`${name}\``;
  let tensor: Tensor;
  // Only a real tensor passes as it is: a JSON object shaped like one is JSON data, checked as such.
  if (isWellFormedTensor(value)) {
    tensor = value;
  } else if (spec.datatype === undefined) {
    return `${where} must be a tensor (got ${describeInput(value)})`;
  } else if (value instanceof Uint8Array) {
    if (spec.datatype !== 'BYTES') return `${where} must be a ${spec.datatype} tensor (got raw bytes)`;
    tensor = { name, datatype: 'BYTES', shape: spec.shape?.map(() => 1) ?? [1], data: [value] };
  } else {
    const shape = inferJsonShape(value, where);
    tensor = tensorFromJsonValues(name, spec.datatype, shape, flattenJsonData(value, where), where);
  }
  if (spec.datatype !== undefined && tensor.datatype !== spec.datatype) return `${where} must be a ${spec.datatype} tensor (got ${tensor.datatype})`;
  if (spec.shape !== undefined && !shapesCompatible(tensor.shape, spec.shape)) {
    return `${where} has shape ${formatShape(tensor.shape)}, which does not fit ${formatShape(spec.shape)}`;
  }
  return tensor;
}

/**
 * Checks a request's inputs against the workflow's `inputs:` and returns them ready for the run: every
 * required input present, no unknown ones, each of its declared type. Tensor inputs with a declared
 * datatype also take JSON data (nested lists; the shape is their nesting) and, for BYTES, raw bytes (one
 * element). Throws `SLUICE_WORKFLOW_INPUT_INVALID` naming every input that does not fit.
 */
export function checkRequestInputs(workflow: WorkflowDefinition, request: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const problems: string[] = [];
  const checked: Record<string, unknown> = {};
  const declared = Object.keys(workflow.inputs);
  for (const name of Object.keys(request)) {
    if (!hasOwnKey(workflow.inputs, name)) problems.push(`there is no input \`${name}\` (${suggestName(name, declared, 'inputs')})`);
  }
  for (const [name, spec] of Object.entries(workflow.inputs)) {
    const value = ownValue(request, name);
    if (value === undefined) {
      if (!spec.optional) problems.push(`input \`${name}\` is missing`);
      continue;
    }
    if (spec.type === 'any') {
      setOwn(checked, name, value);
    } else if (spec.type === 'tensor') {
      try {
        const tensor = tensorInput(name, spec, value);
        if (typeof tensor === 'string') problems.push(tensor);
        else setOwn(checked, name, tensor);
      } catch (error) {
        if (!isSluiceError(error)) throw error;
        problems.push(error.message);
      }
    } else if (fitsType(spec.type, value)) {
      setOwn(checked, name, value);
    } else {
      problems.push(`input \`${name}\` must be ${TYPE_WORDS[spec.type]} (got ${describeInput(value)})`);
    }
  }
  if (problems.length > 0) {
    throw new SluiceError('SLUICE_WORKFLOW_INPUT_INVALID', `workflow \`${workflow.name}\`: ${problems.join('; ')}`, { workflow: workflow.name, problems });
  }
  return checked;
}
