import { findCycles } from '../graph/find-cycles.js';
import { reverseGraph } from '../graph/graph.js';
import { pointerOf } from '../problems/json-pointer.js';
import { draftDependencies } from './draft-dependencies.js';
import type { ValidationContext } from './validation-context.js';

/** Reports every cycle among the nodes, as the path data takes around it (`a → b → c → a`). */
export function checkCycles(context: ValidationContext): void {
  const feeds = reverseGraph(draftDependencies(context));
  for (const cycle of findCycles(feeds)) {
    const first = cycle[0] ?? '';
    context.problems.error(pointerOf('nodes', first), `is part of a cycle: ${cycle.join(' → ')}`, 'a workflow must not loop back; remove one of these references', 'key');
  }
}
