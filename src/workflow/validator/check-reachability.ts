import { reachableFrom } from '../graph/reachability.js';
import { pointerOf } from '../problems/json-pointer.js';
import { draftDependencies } from './draft-dependencies.js';
import type { ValidationContext } from './validation-context.js';

/**
 * Warns about nodes no workflow output depends on: they would run for nothing. Only said when every
 * node, output and reference could be read — otherwise a typo elsewhere would make nodes look unused.
 */
export function checkReachability(context: ValidationContext): void {
  if (!context.draft.complete || context.unknownNodeReferenced) return;
  const starts = Object.values(context.draft.outputs).flatMap((binding) =>
    binding.alternatives.flatMap((source) => (source.kind === 'node' ? [source.node] : [])),
  );
  const needed = reachableFrom(starts, draftDependencies(context));
  for (const id of context.draft.nodes.keys()) {
    if (!needed.has(id)) {
      context.problems.warning(pointerOf('nodes', id), 'contributes to no workflow output', 'use one of its outputs in `outputs` or in a node that does, or remove it', 'key');
    }
  }
}
