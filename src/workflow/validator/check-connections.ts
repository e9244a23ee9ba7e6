import { isSluiceError } from '../../sdk/errors/index.js';
import type { Datatype } from '../../sdk/tensor/index.js';
import type { PortSpec } from '../definition/node-ports.js';
import { describeTarget } from '../definition/node-target.js';
import type { ValueSource } from '../definition/value-source.js';
import type { ProblemAnchor } from '../problems/problem-collector.js';
import { modelInputTensor } from '../values/model-input-tensor.js';
import { ownValue } from '../../sdk/collections/own-property.js';
import { formatShape, shapesCompatible } from '../values/shape-compatibility.js';
import type { ValidationContext } from './validation-context.js';
import type { NodeDraft } from './workflow-draft.js';

/** What is statically known about a value feeding a typed input. */
interface SourceFacts {
  readonly shown: string;
  readonly datatype?: Datatype;
  readonly shape?: readonly number[];
  /**
   * The value is a list of items: a forEach node's output or a handler output declared `list`. (A `list`
   * request input may be JSON rows, which a model input takes, so it does not count.)
   */
  readonly list: boolean;
}

function factsOf(context: ValidationContext, source: ValueSource): SourceFacts | undefined {
  if (source.kind === 'request') {
    const spec = ownValue(context.draft.inputs, source.input);
    if (spec === undefined) return undefined;
    return { shown: `\`$request.${source.input}\``, ...(spec.datatype && { datatype: spec.datatype }), ...(spec.shape && { shape: spec.shape }), list: false };
  }
  if (source.kind !== 'node') return undefined;
  const upstream = context.draft.nodes.get(source.node);
  const port = context.ports.get(source.node)?.outputs.find((p) => p.name === source.output);
  if (upstream === undefined || port === undefined) return undefined;
  return {
    shown: `\`${source.node}.${source.output}\``,
    ...(port.datatype && { datatype: port.datatype }),
    ...(port.shape && { shape: port.shape }),
    list: upstream.forEach !== undefined || port.list === true,
  };
}

function checkLiteral(context: ValidationContext, node: NodeDraft, port: PortSpec, value: unknown, at: string): void {
  if (node.target.kind !== 'model' || port.datatype === undefined || port.shape === undefined) return;
  try {
    modelInputTensor(value, { name: port.name, datatype: port.datatype, shape: port.shape }, 'the literal');
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    context.problems.error(at, `does not fit input \`${port.name}\` of ${describeTarget(node.target)}: ${error.message.replace(/^the literal: /, '')}`, 'change the literal to the datatype and shape the model declares');
  }
}

function checkSource(context: ValidationContext, node: NodeDraft, port: PortSpec, source: ValueSource, at: string, anchor: ProblemAnchor): void {
  if (source.kind === 'literal') {
    checkLiteral(context, node, port, source.value, at);
    return;
  }
  const facts = factsOf(context, source);
  if (facts === undefined) return;
  const target = `input \`${port.name}\` of ${describeTarget(node.target)}`;
  const { problems } = context;
  if (facts.list && node.target.kind === 'model') {
    problems.error(at, `${facts.shown} is a list, but ${target} takes one tensor`, 'fan out over the list with `forEach` and bind `$item`, or merge it with a handler first', anchor);
    return;
  }
  if (facts.list) return;
  if (facts.datatype !== undefined && port.datatype !== undefined && facts.datatype !== port.datatype) {
    problems.error(at, `${facts.shown} is ${facts.datatype}, but ${target} takes ${port.datatype}`, 'connect an output of the same datatype, or convert it with a handler in between', anchor);
    return;
  }
  if (facts.shape !== undefined && port.shape !== undefined && !shapesCompatible(facts.shape, port.shape)) {
    problems.error(
      at,
      `${facts.shown} has shape ${formatShape(facts.shape)}, but ${target} takes ${formatShape(port.shape)}`,
      'connect an output of a compatible shape (-1 fits any size), or reshape it with a handler in between',
      anchor,
    );
  }
}

/**
 * Where the catalog gives tensor facts on both ends, checks that connected values fit: the same
 * datatype, compatible shapes, no list into a model input outside `forEach`, literals the model can take.
 */
export function checkConnections(context: ValidationContext): void {
  for (const node of context.draft.nodes.values()) {
    const ports = context.ports.get(node.id);
    if (ports === undefined) continue;
    for (const [name, binding] of Object.entries(node.inputs)) {
      const port = ports.inputs.find((p) => p.name === name);
      if (port === undefined) continue;
      binding.alternatives.forEach((source, i) => {
        checkSource(context, node, port, source, binding.at, { within: binding.offsets[i] ?? 0 });
      });
    }
  }
}
