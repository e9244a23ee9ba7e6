import type { Condition } from '../definition/condition.js';
import type { NodePorts } from '../definition/node-ports.js';
import { describeTarget } from '../definition/node-target.js';
import type { ProblemCollector } from '../problems/problem-collector.js';
import type { WorkflowCatalog } from './workflow-catalog.js';
import type { WorkflowDraft } from './workflow-draft.js';

/** What the semantic checks share: the draft, the catalog, the problems, and what earlier checks found. */
export interface ValidationContext {
  readonly draft: WorkflowDraft;
  readonly catalog: WorkflowCatalog;
  readonly problems: ProblemCollector;
  /** The ports of each node whose target the catalog knows. */
  readonly ports: Map<string, NodePorts>;
  /** The compiled `when` of each node that has one that compiles. */
  readonly conditions: Map<string, Condition>;
  /** Set when a reference names a node that does not exist: the graph's edges are then not all known. */
  unknownNodeReferenced: boolean;
}

/** `node \`detect\` (model ppocr-det)`, or just the id for a node whose target could not be read. */
export function describeNode(context: ValidationContext, id: string): string {
  const node = context.draft.nodes.get(id);
  return node === undefined ? `node \`${id}\`` : `node \`${id}\` (${describeTarget(node.target)})`;
}
