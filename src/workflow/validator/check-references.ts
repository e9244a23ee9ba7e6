import type { ConditionReference } from '../definition/condition.js';
import type { Binding, ValueSource } from '../definition/value-source.js';
import { closestName, suggestName } from '../problems/did-you-mean.js';
import { childPointer } from '../problems/json-pointer.js';
import type { ProblemAnchor } from '../problems/problem-collector.js';
import { hasOwnKey } from '../../sdk/collections/own-property.js';
import { describeNode, type ValidationContext } from './validation-context.js';

/** Where a binding sits, which decides whether `$item` may appear in it. */
type BindingPlace = 'input of a forEach node' | 'input' | 'forEach' | 'output';

function checkRequestInput(context: ValidationContext, input: string, shown: string, at: string, anchor: ProblemAnchor): void {
  if (hasOwnKey(context.draft.inputs, input)) return;
  const close = closestName(input, Object.keys(context.draft.inputs));
  const hint = close === undefined ? `declare \`${input}\` under \`inputs\`` : `did you mean \`${close}\`?`;
  context.problems.error(at, `\`${shown}\` is not a declared input`, hint, anchor);
}

function checkNodeOutput(context: ValidationContext, node: string, output: string | undefined, at: string, anchor: ProblemAnchor): void {
  const { draft, problems } = context;
  if (!draft.nodeIds.includes(node)) {
    context.unknownNodeReferenced = true;
    problems.error(at, `refers to unknown node \`${node}\``, suggestName(node, draft.nodeIds, 'nodes'), anchor);
    return;
  }
  const ports = context.ports.get(node);
  if (output === undefined || ports === undefined) return;
  const outputs = ports.outputs.map((port) => port.name);
  if (!outputs.includes(output)) {
    problems.error(at, `${describeNode(context, node)} has no output \`${output}\``, suggestName(output, outputs, 'outputs'), anchor);
  }
}

function checkItem(context: ValidationContext, place: BindingPlace, at: string, anchor: ProblemAnchor): void {
  if (place === 'input of a forEach node') return;
  if (place === 'forEach') {
    context.problems.error(at, '`forEach` cannot read `$item`', 'fan out over `<node>.<output>`, `$request.<input>` or a `{ value: [...] }` list', anchor);
    return;
  }
  const hint = place === 'output' ? 'name a node output or a request input' : 'add `forEach: <list>` to the node, or bind another value';
  context.problems.error(at, '`$item` is only defined in a node with `forEach`', hint, anchor);
}

function checkSource(context: ValidationContext, source: ValueSource, place: BindingPlace, at: string, anchor: ProblemAnchor): void {
  switch (source.kind) {
    case 'request':
      checkRequestInput(context, source.input, `$request.${source.input}`, at, anchor);
      return;
    case 'node':
      checkNodeOutput(context, source.node, source.output, at, anchor);
      return;
    case 'item':
      checkItem(context, place, at, anchor);
      return;
    case 'literal':
      return;
  }
}

function checkBinding(context: ValidationContext, binding: Binding, place: BindingPlace): void {
  binding.alternatives.forEach((source, i) => {
    checkSource(context, source, place, binding.at, { within: binding.offsets[i] ?? 0 });
  });
}

function checkConditionReference(context: ValidationContext, reference: ConditionReference, at: string): void {
  const anchor = { within: reference.offset };
  if (reference.kind === 'request') checkRequestInput(context, reference.input, `request.${reference.input}`, at, anchor);
  else checkNodeOutput(context, reference.node, reference.output, at, anchor);
}

/**
 * Checks every reference — node inputs, `forEach`, `when` and workflow outputs — against the declared
 * request inputs, the nodes and their outputs, and where `$item` may appear.
 */
export function checkReferences(context: ValidationContext): void {
  for (const node of context.draft.nodes.values()) {
    const place = node.forEach === undefined ? 'input' : 'input of a forEach node';
    for (const binding of Object.values(node.inputs)) checkBinding(context, binding, place);
    if (node.forEach !== undefined) checkBinding(context, node.forEach, 'forEach');
    for (const reference of context.conditions.get(node.id)?.references ?? []) {
      checkConditionReference(context, reference, childPointer(node.at, 'when'));
    }
  }
  for (const binding of Object.values(context.draft.outputs)) checkBinding(context, binding, 'output');
}
