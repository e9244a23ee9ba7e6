import type { ValueSource } from '../definition/value-source.js';
import { describeTarget } from '../definition/node-target.js';
import type { ProblemAnchor } from '../problems/problem-collector.js';
import { ownValue } from '../../sdk/collections/own-property.js';
import type { ValidationContext } from './validation-context.js';

const LIST_SOURCES = 'fan out over a handler output declared `list`, a forEach node\'s output, a `list` request input or a `{ value: [...] }` list';

/** Why `source` is known not to be a list, or undefined when it is (or may be) one. */
function notAList(context: ValidationContext, source: ValueSource): string | undefined {
  switch (source.kind) {
    case 'literal':
      return Array.isArray(source.value) ? undefined : 'the literal is not a list';
    case 'request': {
      const spec = ownValue(context.draft.inputs, source.input);
      if (spec === undefined || spec.type === 'list' || spec.type === 'any') return undefined;
      return `\`$request.${source.input}\` is a ${spec.type} input`;
    }
    case 'node': {
      const upstream = context.draft.nodes.get(source.node);
      const port = context.ports.get(source.node)?.outputs.find((p) => p.name === source.output);
      if (upstream === undefined || port === undefined || upstream.forEach !== undefined || port.list !== false) return undefined;
      const target = describeTarget(upstream.target);
      if (upstream.target.kind === 'model') return `\`${source.node}.${source.output}\` is an output of ${target}, one tensor`;
      return `${target} does not declare output \`${source.output}\` as a list`;
    }
    case 'item':
      return undefined;
  }
}

/** Checks that every `forEach` fans out over something that is, or may be, a list. */
export function checkForEach(context: ValidationContext): void {
  for (const node of context.draft.nodes.values()) {
    const binding = node.forEach;
    if (binding === undefined) continue;
    binding.alternatives.forEach((source, i) => {
      const reason = notAList(context, source);
      const anchor: ProblemAnchor = source.kind === 'literal' ? 'value' : { within: binding.offsets[i] ?? 0 };
      if (reason !== undefined) context.problems.error(binding.at, `\`forEach\` needs a list, but ${reason}`, LIST_SOURCES, anchor);
    });
  }
}
