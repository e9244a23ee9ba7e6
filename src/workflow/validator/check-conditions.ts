import { compileCondition } from '../cel/compile-condition.js';
import { childPointer } from '../problems/json-pointer.js';
import type { ValidationContext } from './validation-context.js';

const CEL_FORMS = 'write a CEL expression over `request.<input>` and `nodes.<node>.<output>` (`nodes["<node-id>"]` for ids with `-`)';

function hintFor(expression: string): string {
  if (expression.includes('$request') || expression.includes('$item')) {
    return 'in `when`, write `request.<input>` without `$`; `$item` is not available there';
  }
  return CEL_FORMS;
}

/** Compiles every `when`, reporting the CEL error at its position in the expression. */
export function checkConditions(context: ValidationContext): void {
  for (const node of context.draft.nodes.values()) {
    if (node.when === undefined) continue;
    const at = childPointer(node.at, 'when');
    const compiled = compileCondition(node.when);
    if (!compiled.ok) {
      context.problems.error(at, compiled.error.message, hintFor(node.when), { within: compiled.error.offset });
      continue;
    }
    for (const access of compiled.unfollowable) {
      context.problems.error(
        at,
        `reads \`${access.variable}\` with a computed key`,
        `name what it reads literally: \`${access.variable === 'request' ? 'request.<input>' : 'nodes.<node>.<output>'}\``,
        { within: access.offset },
      );
    }
    context.conditions.set(node.id, compiled.condition);
  }
}
