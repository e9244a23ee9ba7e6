import { findCycles } from '../graph/find-cycles.js';
import { reverseGraph } from '../graph/graph.js';
import { pointerOf } from '../problems/json-pointer.js';
import { draftDependencies } from './draft-dependencies.js';
import type { ValidationContext } from './validation-context.js';

/**
 * Most cycles reported: each is a path of up to every node, and a dense graph of a thousand nodes has
 * tens of thousands of them, which would make an answer of many megabytes.
 */
export const MAX_REPORTED_CYCLES = 10;

/**
 * Reports the cycles among the nodes, each as the path data takes around it (`a → b → c → a`), and past
 * {@link MAX_REPORTED_CYCLES} that there are more.
 */
export function checkCycles(context: ValidationContext): void {
  const feeds = reverseGraph(draftDependencies(context));
  const cycles = findCycles(feeds, MAX_REPORTED_CYCLES + 1);
  for (const cycle of cycles.slice(0, MAX_REPORTED_CYCLES)) {
    const first = cycle[0] ?? '';
    context.problems.error(pointerOf('nodes', first), `is part of a cycle: ${cycle.join(' → ')}`, 'a workflow must not loop back; remove one of these references', 'key');
  }
  if (cycles.length > MAX_REPORTED_CYCLES) {
    context.problems.error(
      '/nodes',
      `has more cycles than the ${MAX_REPORTED_CYCLES} listed`,
      'remove the references that close the cycles listed, then load the workflow again to see the others',
      'key',
    );
  }
}
