import { MAX_WORKFLOW_DEPTH } from '../definition/nesting-limit.js';
import { clipText, MAX_QUOTED_CHARS } from '../problems/clip-text.js';
import { childPointer, pointerOf } from '../problems/json-pointer.js';
import { CallChains } from './call-chains.js';
import type { ValidationContext } from './validation-context.js';

/** Longest chain written out in full; a longer one is written by its ends, so the problem stays one short line. */
const MAX_CHAIN_CHARS = 200;

function describeChain(chain: readonly string[]): string {
  const full = chain.join(' → ');
  if (full.length <= MAX_CHAIN_CHARS) return full;
  const ends = [...chain.slice(0, 2), '…', ...chain.slice(-2)];
  return ends.map((name) => clipText(name, MAX_QUOTED_CHARS)).join(' → ');
}

function tooDeep(chain: readonly string[]): string {
  return `the chain of workflows ${describeChain(chain)} nests ${chain.length - 1} levels deep, more than the ${MAX_WORKFLOW_DEPTH} allowed`;
}

/**
 * Refuses a workflow that would make a chain of sub-workflows nest deeper than a run may
 * ({@link MAX_WORKFLOW_DEPTH}), counting the registered workflows that call it as well as those it calls,
 * so that replacing a workflow cannot deepen its callers' chains. Each `workflow:` node whose chain is too
 * deep is named with the chain (by its ends when long); when the callers alone nest too deep,
 * `metadata.name` is.
 */
export function checkCallDepth(context: ValidationContext): void {
  const { draft, catalog, problems } = context;
  const chains = new CallChains(catalog, draft.name);
  const callers = chains.callers();
  if (callers.length - 1 > MAX_WORKFLOW_DEPTH) {
    problems.error(
      pointerOf('metadata', 'name'),
      tooDeep(callers),
      'the workflows calling this one already nest that deep; register it under another name, or shorten the chain of its callers first',
    );
    return;
  }
  for (const node of draft.nodes.values()) {
    // Only nodes whose workflow resolved: an unknown workflow or a loop has its own problem.
    if (node.target.kind !== 'workflow' || !context.ports.has(node.id)) continue;
    const chain = [...callers, ...chains.from(node.target.workflow)];
    if (chain.length - 1 > MAX_WORKFLOW_DEPTH) {
      problems.error(
        childPointer(node.at, 'workflow'),
        tooDeep(chain),
        'each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow',
      );
    }
  }
}
