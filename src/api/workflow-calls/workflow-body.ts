import { SluiceError } from '../../sdk/errors/index.js';
import type { WorkflowDefinition } from '../../workflow/index.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * A workflow's request inputs from a body as a handler would see it: a JSON object whose keys are the
 * workflow's inputs; or, when the workflow has a single input, the whole body as that input (JSON data, or
 * raw bytes such as an image; a JSON object only when the input may be a mapping, `object` or `any`, and
 * the object is not just that input by name); for a workflow without inputs, an empty object or no body. The inputs are
 * checked when the run starts, which names every input missing or unknown.
 */
export function workflowInputsFromBody(body: unknown, workflow: WorkflowDefinition): Record<string, unknown> {
  const names = Object.keys(workflow.inputs);
  const [only, ...more] = names;
  if (only !== undefined && more.length === 0) {
    if (!isRecord(body)) return { [only]: body };
    // An input that cannot be a mapping cannot be a JSON object body: its keys are input names, so that
    // a misspelt or extra key is named as such instead of the object being checked as the input's value.
    const type = workflow.inputs[only]?.type;
    if (type !== 'object' && type !== 'any') return body;
    // Own keys only: an input may be called `constructor` or `__proto__`, which every object inherits.
    return Object.keys(body).length === 1 && Object.hasOwn(body, only) ? body : { [only]: body };
  }
  if (isRecord(body)) return body;
  if (only === undefined && body instanceof Uint8Array && body.byteLength === 0) return {};
  throw new SluiceError(
    'SLUICE_WORKFLOW_INPUT_INVALID',
    only === undefined
      ? `workflow \`${workflow.name}\` takes no inputs; send an empty JSON object or no body`
      : `workflow \`${workflow.name}\` takes the inputs ${names.join(', ')}; send a JSON object with one entry per input`,
  );
}

/**
 * A workflow's answer in TorchServe's style: a workflow with one output answers that output's value (its
 * single leaf), several answer an object keyed by output. `outputs` are already JSON values.
 */
export function workflowAnswerOf(outputs: Readonly<Record<string, unknown>>, workflow: WorkflowDefinition): unknown {
  const [only, ...more] = Object.keys(workflow.outputs);
  return only !== undefined && more.length === 0 ? (outputs[only] ?? null) : outputs;
}
