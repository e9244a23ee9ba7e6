import { describeTarget } from '../definition/node-target.js';
import { suggestName } from '../problems/did-you-mean.js';
import { childPointer } from '../problems/json-pointer.js';
import { hasOwnKey } from '../../sdk/collections/own-property.js';
import type { ValidationContext } from './validation-context.js';

/**
 * Checks each node's input names against its target's: no unknown ones, every required one bound;
 * and the outputs of an `onError` fallback against the target's outputs.
 */
export function checkNodeInputs(context: ValidationContext): void {
  const { problems } = context;
  for (const node of context.draft.nodes.values()) {
    const ports = context.ports.get(node.id);
    if (ports === undefined) continue;
    const target = describeTarget(node.target);
    const inputsAt = childPointer(node.at, 'inputs');
    const inputNames = ports.inputs.map((port) => port.name);
    for (const name of Object.keys(node.inputs)) {
      if (!inputNames.includes(name)) {
        problems.error(childPointer(inputsAt, name), `${target} has no input \`${name}\``, suggestName(name, inputNames, 'inputs'), 'key');
      }
    }
    for (const port of ports.inputs) {
      if (port.required && !hasOwnKey(node.inputs, port.name)) {
        problems.error(inputsAt, `gives no value for input \`${port.name}\` of ${target}`, `add \`${port.name}: <reference>\` under \`inputs\``, 'key');
      }
    }
    if (node.onError.kind === 'fallback') {
      const outputNames = ports.outputs.map((port) => port.name);
      const fallbackAt = childPointer(childPointer(node.at, 'onError'), 'fallback');
      for (const name of Object.keys(node.onError.outputs)) {
        if (!outputNames.includes(name)) {
          problems.error(childPointer(fallbackAt, name), `${target} has no output \`${name}\``, suggestName(name, outputNames, 'outputs'), 'key');
        }
      }
    }
  }
}
