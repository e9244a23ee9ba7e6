import type { TensorSpec } from '../sdk/tensor/index.js';
import type { ModelDescription } from '../sdk/model/model-description.js';

function frozenSpec(spec: TensorSpec): TensorSpec {
  return Object.freeze({ ...spec, shape: Object.freeze([...spec.shape]) });
}

/**
 * A frozen copy of `description`, specs and labels included. Every request, hook and handler of a version
 * shares its description, and the version validates requests against its specs: a plugin that writes to
 * it (`model.inputs[0].name = …`) must fail on its own (a strict-mode module throws) rather than change
 * the model for everyone. A copy, so that the executor's own specs are left as they are.
 */
export function frozenDescription(description: ModelDescription): ModelDescription {
  return Object.freeze({
    ...description,
    inputs: Object.freeze(description.inputs.map(frozenSpec)),
    outputs: Object.freeze(description.outputs.map(frozenSpec)),
    ...(description.labels !== undefined ? { labels: Object.freeze([...description.labels]) } : {}),
  });
}

/**
 * `value` frozen in place with everything reachable from it (typed arrays, which cannot be frozen, are
 * left as they are): for plain data such as a manifest's handler settings, which a loaded manifest already
 * is and a hand-made one may not be.
 */
export function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
}
